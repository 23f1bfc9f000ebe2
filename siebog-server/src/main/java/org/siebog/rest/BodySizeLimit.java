package org.siebog.rest;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import org.siebog.api.MessageTooLargeException;
import org.siebog.platform.PlatformConfig;

/**
 * Refuses request bodies over {@link PlatformConfig#maxJsonBodyBytes()} while reading them, so an
 * oversized body (with or without a Content-Length) never fills the heap: 413.
 */
@Provider
public class BodySizeLimit implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        long limit = PlatformConfig.SYSTEM.maxJsonBodyBytes();
        String declared = context.getHeaders().getFirst("Content-Length");
        if (declared != null && declared.matches("\\d{1,18}") && Long.parseLong(declared) > limit) {
            throw new MessageTooLargeException("the request body (in bytes)", Long.parseLong(declared), limit);
        }
        context.setInputStream(new LimitedStream(context.getInputStream(), limit));
        return context.proceed();
    }

    private static final class LimitedStream extends FilterInputStream {
        private final long limit;
        private long read;

        LimitedStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw new MessageTooLargeException("the request body (in bytes)", read, limit);
            }
        }
    }
}
