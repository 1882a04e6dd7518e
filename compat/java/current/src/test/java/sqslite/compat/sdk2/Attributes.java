package sqslite.compat.sdk2;

import static sqslite.compat.Compat.lengthPrefixed;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import sqslite.compat.Compat;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** The message attributes of the scenarios and SQS's MD5 over them, computed here, not by the SDK. */
final class Attributes {
    static final Map<String, MessageAttributeValue> ALL_TYPES = new LinkedHashMap<>();

    static {
        ALL_TYPES.put("s", string("String", "h\u00e9llo <w\u00f6rld> & \"friends\""));
        ALL_TYPES.put("n", string("Number", "-12.5e3"));
        ALL_TYPES.put("b", binary("Binary", new byte[] {0, 1, (byte) 0xfe, (byte) 0xff}));
        ALL_TYPES.put("s.label", string("String.custom-label", "labelled"));
        ALL_TYPES.put("n.label", string("Number.float", "3.14"));
        ALL_TYPES.put("b.label", binary("Binary.gif", "GIF89a".getBytes(StandardCharsets.US_ASCII)));
    }

    private Attributes() {}

    static MessageAttributeValue string(String type, String value) {
        return MessageAttributeValue.builder().dataType(type).stringValue(value).build();
    }

    static MessageAttributeValue binary(String type, byte[] value) {
        return MessageAttributeValue.builder().dataType(type).binaryValue(SdkBytes.fromByteArray(value)).build();
    }

    static Map<String, MessageAttributeValue> only(String... names) {
        Map<String, MessageAttributeValue> chosen = new LinkedHashMap<>();
        for (String name : names) {
            chosen.put(name, ALL_TYPES.get(name));
        }
        return chosen;
    }

    /** SQS's MD5 of message attributes: names in byte order, each name, type and value length-prefixed. */
    static String md5(Map<String, MessageAttributeValue> attributes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        attributes.keySet().stream()
                .sorted((a, b) -> Arrays.compareUnsigned(utf8(a), utf8(b)))
                .forEach(name -> {
                    MessageAttributeValue value = attributes.get(name);
                    out.writeBytes(lengthPrefixed(utf8(name)));
                    out.writeBytes(lengthPrefixed(utf8(value.dataType())));
                    if (value.binaryValue() != null) {
                        out.write(2);
                        out.writeBytes(lengthPrefixed(value.binaryValue().asByteArray()));
                    } else {
                        out.write(1);
                        out.writeBytes(lengthPrefixed(utf8(value.stringValue())));
                    }
                });
        return Compat.md5Hex(out.toByteArray());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
