package org.siebog.device;

import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

/** {@code /siebog/ws/device}: one socket per device; the frames are handled by {@link DeviceProtocol}. */
@ServerEndpoint("/ws/device")
public class DeviceEndpoint {

    private static final Logger LOG = Logger.getLogger(DeviceEndpoint.class.getName());
    private static final String CONNECTION = "siebog.device";

    @Inject
    WebClientManagerBean devices;

    @Inject
    DeviceProtocol protocol;

    @OnOpen
    public void open(Session session) {
        session.setMaxBinaryMessageBufferSize(1024); // binary frames are refused anyway
        DeviceConnection connection = new DeviceConnection(session);
        session.getUserProperties().put(CONNECTION, connection);
        devices.opened(connection);
    }

    /** Taken in parts, so an oversized frame is refused by its size without holding all of it. */
    @OnMessage
    public void text(Session session, String part, boolean last) {
        DeviceConnection connection = connectionOf(session);
        String frame = connection.assemble(part, last, WebClientManagerBean.MAX_FRAME_BYTES);
        if (frame == null && connection.frameTooLarge()) {
            connection.close(CloseReason.CloseCodes.TOO_BIG.getCode(), "a frame may have at most "
                    + WebClientManagerBean.MAX_FRAME_BYTES + " bytes");
        } else if (frame != null) {
            protocol.handle(connection, frame);
        }
    }

    @OnMessage
    public void binary(Session session, ByteBuffer frame) {
        connectionOf(session).close(CloseReason.CloseCodes.CANNOT_ACCEPT.getCode(), "binary frames are not part of the protocol; send JSON text");
    }

    @OnClose
    public void close(Session session, CloseReason reason) {
        devices.closed(connectionOf(session));
    }

    @OnError
    public void error(Session session, Throwable failure) {
        LOG.log(Level.FINE, "device socket failed", failure);
    }

    private static DeviceConnection connectionOf(Session session) {
        return (DeviceConnection) session.getUserProperties().get(CONNECTION);
    }
}
