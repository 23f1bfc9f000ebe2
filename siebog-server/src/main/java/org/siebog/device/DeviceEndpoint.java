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

/**
 * {@code /siebog/ws/device}: one socket per device; the frames are handled by {@link DeviceProtocol}.
 * The container makes one endpoint instance per socket (the default configurator), so the instance
 * holds its {@link DeviceConnection} itself rather than in the session's user properties, which
 * would cost every idle device a map entry and table.
 */
@ServerEndpoint("/ws/device")
public class DeviceEndpoint {

    private static final Logger LOG = Logger.getLogger(DeviceEndpoint.class.getName());

    @Inject
    DeviceSockets sockets;

    @Inject
    DeviceProtocol protocol;

    private volatile DeviceConnection connection;

    @OnOpen
    public void open(Session session) {
        session.setMaxBinaryMessageBufferSize(1024); // binary frames are refused anyway
        connection = new DeviceConnection(session, DeviceLimits.current(), sockets);
        sockets.opened(connection);
    }

    /** Taken in parts, so an oversized frame is refused by its size without holding all of it. */
    @OnMessage
    public void text(Session session, String part, boolean last) {
        if (connection.shut()) {
            return; // the node gave up on this device and closes it: what it still sends changes nothing
        }
        String frame = connection.assemble(part, last, DeviceSockets.MAX_FRAME_BYTES);
        if (frame == null && connection.frameTooLarge()) {
            connection.close(CloseReason.CloseCodes.TOO_BIG.getCode(), "a frame may have at most "
                    + DeviceSockets.MAX_FRAME_BYTES + " bytes");
        } else if (frame != null) {
            protocol.handle(connection, frame);
        }
    }

    /** This socket's connection (null before it opened). */
    DeviceConnection connection() {
        return connection;
    }

    @OnMessage
    public void binary(Session session, ByteBuffer frame) {
        connection.close(CloseReason.CloseCodes.CANNOT_ACCEPT.getCode(), "binary frames are not part of the protocol; send JSON text");
    }

    @OnClose
    public void close(Session session, CloseReason reason) {
        if (connection != null) {
            sockets.closed(connection);
        }
    }

    @OnError
    public void error(Session session, Throwable failure) {
        LOG.log(Level.FINE, "device socket failed", failure);
    }
}
