// replaced by the GEOS wrapper
