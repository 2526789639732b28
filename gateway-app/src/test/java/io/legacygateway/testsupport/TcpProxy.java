package io.legacygateway.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A loopback TCP proxy in front of a real server (a database, a broker), so a test can make that server unreachable for
 * the gateway alone: {@link #stop()} closes the listening port and every proxied connection (the gateway's pooled
 * connections break, new ones are refused), {@link #start()} listens again on the same port. {@link #holdReplies()}
 * then {@link #cutConnections()} lose the answer to a request the server carried out (a commit whose outcome the
 * client cannot know).
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Socket> silenced = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;
    private int port;
    /** While set, what the target answers is held back (not forwarded to the client) until it is released. */
    private volatile CountDownLatch repliesHeld;

    public TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /**
     * Listens (on a free port the first time, on the same port afterwards) and forwards to the target; nothing to do
     * when it listens already.
     */
    public synchronized TcpProxy start() {
        if (server != null) {
            return this;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            port = s.getLocalPort();
            server = s;
            Thread acceptor = new Thread(() -> accept(s), "tcp-proxy-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops listening and cuts every connection: the target is unreachable through the proxy until {@link #start}. */
    public synchronized void stop() {
        ServerSocket s = server;
        server = null;
        closeQuietly(s);
        cutConnections();
    }

    /**
     * Makes one proxied connection a dead path without closing it: from now on what either side sends is dropped, as a
     * network that loses packets or a firewall that forgot the connection would (no reset, no error, no answer).
     *
     * @param upstreamLocalPort the proxy's own port towards the target on that connection (what the server sees as
     *                          the client's port, e.g. {@code pg_stat_activity.client_port})
     * @return whether such a connection was found
     */
    public boolean silence(int upstreamLocalPort) {
        for (Socket s : sockets) {
            if (s.getPort() == targetPort && s.getLocalPort() == upstreamLocalPort) {
                silenced.add(s);
                return true;
            }
        }
        return false;
    }

    public int port() {
        return port;
    }

    /**
     * From now on the target's answers are not forwarded to the clients (what the clients send still reaches the
     * target): a request the target has carried out gets no reply, as when the connection is lost right after it.
     * {@link #cutConnections()} or {@link #stop()} ends the hold.
     */
    public void holdReplies() {
        repliesHeld = new CountDownLatch(1);
    }

    /** Closes every proxied connection, replies held back included, and keeps listening for new ones. */
    public synchronized void cutConnections() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
        releaseReplies();
    }

    private void releaseReplies() {
        CountDownLatch held = repliesHeld;
        repliesHeld = null;
        if (held != null) {
            held.countDown();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                Socket upstream;
                try {
                    upstream = new Socket(targetHost, targetPort);
                } catch (IOException refused) {
                    closeQuietly(client); // the client sees its connection closed at once, as with the target itself
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                if (!register(s, client, upstream)) {
                    continue; // accepted while stop() ran: it must not outlive the outage
                }
                pump(client, upstream, false);
                pump(upstream, client, true);
            } catch (IOException e) {
                // closed by stop(), or the target refused: the client sees its connection fail
            }
        }
    }

    /**
     * Keeps the pair for {@link #stop} to close, unless the proxy stopped (or restarted) since {@code s} accepted it:
     * then both are closed here. Without this, a connection accepted just before a stop survived it (a pool refilling
     * at that moment reached the database through the "stopped" proxy).
     */
    private synchronized boolean register(ServerSocket s, Socket client, Socket upstream) {
        if (server != s) {
            closeQuietly(client);
            closeQuietly(upstream);
            return false;
        }
        sockets.add(client);
        sockets.add(upstream);
        return true;
    }

    private void pump(Socket from, Socket to, boolean replies) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (silenced.contains(from) || silenced.contains(to)) {
                        continue; // a dead path: the bytes go nowhere, and nobody is told
                    }
                    CountDownLatch held = replies ? repliesHeld : null;
                    if (held != null) {
                        held.await(); // until the connection is cut (then the write below fails) or released
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
                silenced.remove(from);
                silenced.remove(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // already closed
            }
        }
    }
}
