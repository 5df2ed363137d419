import XMLSchemaOracle

/// The JUnit XML schema CI systems read (Jenkins' junit plugin, GitLab, GitHub reporters): the
/// Ant/Jenkins structure written out here as an XML Schema, with the attributes those tools need
/// marked required (a suite's name and counts, a case's name and classname).
enum JUnitSchema {
    static let xsd = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
          <xs:simpleType name="count"><xs:restriction base="xs:int"><xs:minInclusive value="0"/></xs:restriction></xs:simpleType>
          <xs:complexType name="outcome" mixed="true">
            <xs:attribute name="message" type="xs:string"/>
            <xs:attribute name="type" type="xs:string"/>
          </xs:complexType>
          <xs:element name="testsuites">
            <xs:complexType>
              <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
              <xs:attribute name="name" type="xs:string"/>
              <xs:attribute name="tests" type="count"/>
              <xs:attribute name="failures" type="count"/>
              <xs:attribute name="errors" type="count"/>
              <xs:attribute name="disabled" type="count"/>
              <xs:attribute name="time" type="xs:decimal"/>
            </xs:complexType>
          </xs:element>
          <xs:element name="testsuite">
            <xs:complexType>
              <xs:sequence>
                <xs:element name="properties" minOccurs="0">
                  <xs:complexType><xs:sequence>
                    <xs:element name="property" minOccurs="0" maxOccurs="unbounded">
                      <xs:complexType><xs:attribute name="name" type="xs:string" use="required"/><xs:attribute name="value" type="xs:string" use="required"/></xs:complexType>
                    </xs:element>
                  </xs:sequence></xs:complexType>
                </xs:element>
                <xs:element name="testcase" minOccurs="0" maxOccurs="unbounded">
                  <xs:complexType>
                    <xs:choice minOccurs="0" maxOccurs="unbounded">
                      <xs:element name="skipped" type="outcome"/>
                      <xs:element name="error" type="outcome"/>
                      <xs:element name="failure" type="outcome"/>
                      <xs:element name="system-out" type="xs:string"/>
                      <xs:element name="system-err" type="xs:string"/>
                    </xs:choice>
                    <xs:attribute name="name" type="xs:string" use="required"/>
                    <xs:attribute name="classname" type="xs:string" use="required"/>
                    <xs:attribute name="assertions" type="count"/>
                    <xs:attribute name="time" type="xs:decimal"/>
                    <xs:attribute name="status" type="xs:string"/>
                  </xs:complexType>
                </xs:element>
                <xs:element name="system-out" type="xs:string" minOccurs="0"/>
                <xs:element name="system-err" type="xs:string" minOccurs="0"/>
              </xs:sequence>
              <xs:attribute name="name" type="xs:string" use="required"/>
              <xs:attribute name="tests" type="count" use="required"/>
              <xs:attribute name="failures" type="count"/>
              <xs:attribute name="errors" type="count"/>
              <xs:attribute name="skipped" type="count"/>
              <xs:attribute name="disabled" type="count"/>
              <xs:attribute name="time" type="xs:decimal"/>
              <xs:attribute name="timestamp" type="xs:dateTime"/>
              <xs:attribute name="hostname" type="xs:string"/>
              <xs:attribute name="id" type="xs:string"/>
              <xs:attribute name="package" type="xs:string"/>
            </xs:complexType>
          </xs:element>
        </xs:schema>
        """

    /// Whether `document` is well-formed and valid against the schema (libxml2's
    /// `xmlSchemaValidateDoc`); a schema that does not parse is a test failure of its own.
    static func validates(_ document: String) -> Bool {
        var schema = xsd, doc = document
        let result = schema.withUTF8 { s in
            doc.withUTF8 { d in
                s.withMemoryRebound(to: CChar.self) { s in
                    d.withMemoryRebound(to: CChar.self) { d in
                        xsd_oracle_validate(s.baseAddress, s.count, d.baseAddress, d.count)
                    }
                }
            }
        }
        precondition(result != -1, "the JUnit schema does not parse")
        return result == 0
    }
}
