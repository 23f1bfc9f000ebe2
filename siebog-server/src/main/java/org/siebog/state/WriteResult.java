package org.siebog.state;

/**
 * The outcome of a conditional write.
 *
 * @param applied whether the write was accepted
 * @param version the version now stored: the new one when applied; when refused, the one the
 *                store holds (0 when it holds none), so the writer knows how far behind it is
 */
public record WriteResult(boolean applied, long version) {

    static WriteResult applied(long version) {
        return new WriteResult(true, version);
    }

    static WriteResult refused(long current) {
        return new WriteResult(false, current);
    }
}
