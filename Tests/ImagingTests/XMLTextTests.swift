import Imaging
import Testing

@Suite("XML text: the one escaper and unescaper of XMP packets and S3 bodies")
struct XMLTextTests {
    @Test("the five entities and both character-reference forms are read back; an unknown entity or a lone & stays")
    func unescapes() {
        #expect(XMLText.unescaped("a &lt;b&gt; &quot;c&quot; &apos;d&apos; &amp;lt; &#233;&#xE9;&#XE9; &bogus; & end")
                == "a <b> \"c\" 'd' &lt; ééé &bogus; & end")
        #expect(XMLText.unescaped("no entity at all") == "no entity at all")
        #expect(XMLText.unescaped("cut &amp") == "cut &amp")
    }

    @Test("escaping then unescaping gives the text back")
    func roundTrips() {
        let text = "Tom & Jerry's <\"cartoon\"> – 5 > 3 & 2 < 4"
        #expect(XMLText.escaped(text) == "Tom &amp; Jerry&apos;s &lt;&quot;cartoon&quot;&gt; – 5 &gt; 3 &amp; 2 &lt; 4")
        #expect(XMLText.unescaped(XMLText.escaped(text)) == text)
    }
}
