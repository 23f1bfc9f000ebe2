package org.siebog.device;

/** A frame that breaks the protocol itself: the socket is closed with {@code code} (docs/device-protocol.md). */
final class ProtocolViolation extends RuntimeException {

    final int code;

    ProtocolViolation(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }
}
