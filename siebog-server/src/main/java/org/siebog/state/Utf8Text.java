package org.siebog.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;

/**
 * CQL {@code text} for agent states. The driver's own codec encodes through a {@code CharsetEncoder}
 * one char at a time, which was 4% of a node's CPU under a write-heavy load of 1 KB states;
 * {@link String#getBytes} takes the JDK's intrinsic path. The two differ only on lone surrogates,
 * which a state never holds: it is text from a WebSocket frame, whose UTF-8 the server has checked.
 */
final class Utf8Text implements TypeCodec<String> {

    static final Utf8Text CODEC = new Utf8Text();

    private Utf8Text() {
    }

    @Override
    public GenericType<String> getJavaType() {
        return GenericType.STRING;
    }

    @Override
    public DataType getCqlType() {
        return DataTypes.TEXT;
    }

    @Override
    public ByteBuffer encode(String value, ProtocolVersion protocolVersion) {
        return value == null ? null : ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String decode(ByteBuffer bytes, ProtocolVersion protocolVersion) {
        if (bytes == null) {
            return null;
        }
        if (bytes.hasArray()) {
            return new String(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining(), StandardCharsets.UTF_8);
        }
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        return new String(copy, StandardCharsets.UTF_8);
    }

    @Override
    public String format(String value) {
        return TypeCodecs.TEXT.format(value);
    }

    @Override
    public String parse(String value) {
        return TypeCodecs.TEXT.parse(value);
    }
}
