import Foundation

func cosDegrees(_ x: Double) -> Double { cos(x * .pi / 180) }
