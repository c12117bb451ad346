package io.cfslab.api;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.reactivestreams.Publisher;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.AbstractDataBufferDecoder;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
import reactor.core.publisher.Flux;

/**
 * Reads a whole request body into a {@code String} (every {@code @RequestBody String} of the API), refusing
 * bytes that are not valid in its charset (UTF-8 unless the {@code Content-Type} names another): Spring's own
 * {@code StringDecoder} silently replaces them with U+FFFD, so a name with a stray byte was stored changed.
 * A refusal is a {@link DecodingException}, which WebFlux answers with 400 (a problem, by
 * {@link ProblemHandler}). A UTF-8 byte order mark is dropped, as {@code StringDecoder} does.
 *
 * <p>The body is read whole, up to the codecs' {@code max-in-memory-size} (more is a 413), copied once into
 * a {@code byte[]} (the joined buffers are released at once), checked in 8 KB steps without a second copy,
 * then made a {@code String}.
 */
final class StrictStringDecoder extends AbstractDataBufferDecoder<String> {

    StrictStringDecoder() {
        super(MimeTypeUtils.ALL);
    }

    @Override
    public boolean canDecode(ResolvableType elementType, MimeType mimeType) {
        return elementType.resolve() == String.class && super.canDecode(elementType, mimeType);
    }

    /** Always one String for the whole body: a character may span two of the network's chunks. */
    @Override
    public Flux<String> decode(Publisher<DataBuffer> input, ResolvableType elementType, MimeType mimeType,
                               Map<String, Object> hints) {
        return Flux.from(decodeToMono(input, elementType, mimeType, hints));
    }

    @Override
    public String decode(DataBuffer buffer, ResolvableType targetType, MimeType mimeType, Map<String, Object> hints) {
        byte[] bytes = new byte[buffer.readableByteCount()];
        try {
            buffer.read(bytes);
        } finally {
            DataBufferUtils.release(buffer);
        }
        Charset charset = mimeType != null && mimeType.getCharset() != null ? mimeType.getCharset() : StandardCharsets.UTF_8;
        int offset = 0;
        if (charset.equals(StandardCharsets.UTF_8) && bytes.length >= 3
                && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF) {
            offset = 3;
        }
        check(bytes, offset, charset);
        return new String(bytes, offset, bytes.length - offset, charset);
    }

    /**
     * A body that is not text in its charset: a {@link DecodingException} (WebFlux answers 400) whose message is written
     * here, for the client, so the problem may carry it ({@link ProblemHandler}).
     */
    static final class BodyNotDecodable extends DecodingException {
        BodyNotDecodable(String reason) {
            super(reason);
        }
    }

    /** @throws BodyNotDecodable naming the byte offset of the first invalid sequence */
    static void check(byte[] bytes, int offset, Charset charset) {
        CharsetDecoder decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, bytes.length - offset);
        CharBuffer out = CharBuffer.allocate(8192);
        try {
            while (true) {
                CoderResult r = decoder.decode(in, out, true);
                if (r.isError()) {
                    throw new BodyNotDecodable("the body is not valid " + charset.name() + ": invalid byte sequence at"
                            + " byte " + in.position() + " (0x" + Integer.toHexString(bytes[in.position()] & 0xff) + ")");
                }
                out.clear();
                if (r.isUnderflow()) break;
            }
            CoderResult r = decoder.flush(out);
            if (r.isError()) r.throwException();
        } catch (CharacterCodingException e) {
            throw new BodyNotDecodable("the body is not valid " + charset.name());
        }
    }
}
