package io.legacygateway.docker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Just enough of the tar format (POSIX ustar with pax extended headers, as Jib and GNU tar write it) to read an image
 * tar made by {@code docker save} or Jib's {@code buildTar}: its small files' contents and each layer's entries.
 */
final class ImageTar {

    /** One entry of a layer: path without a leading {@code ./} or {@code /}, unix mode, owner, mtime in seconds. */
    record Entry(String path, char type, int mode, long uid, long gid, long size, long mtime) {
        boolean isFile() {
            return type == '0' || type == '\0';
        }
    }

    private ImageTar() {
    }

    /** The contents of the outer tar's files (manifest.json, config, layers), by name. */
    static Map<String, byte[]> files(Path tar) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(tar)) {
            read(in, (entry, content) -> {
                if (entry.isFile()) {
                    files.put(entry.path(), content.readAllBytes());
                }
            });
        }
        return files;
    }

    /** The entries of one layer blob, gzip-compressed or not. */
    static List<Entry> layer(byte[] blob) throws IOException {
        InputStream in = new java.io.ByteArrayInputStream(blob);
        if (blob.length > 2 && (blob[0] & 0xff) == 0x1f && (blob[1] & 0xff) == 0x8b) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        List<Entry> entries = new ArrayList<>();
        read(in, (entry, content) -> entries.add(entry));
        return entries;
    }

    private interface Visitor {
        void visit(Entry entry, InputStream content) throws IOException;
    }

    private static void read(InputStream in, Visitor visitor) throws IOException {
        byte[] header = new byte[512];
        Map<String, String> pax = new HashMap<>();
        String longName = null;
        while (readFully(in, header)) {
            if (isZero(header)) {
                return;
            }
            char type = (char) header[156];
            long size = number(header, 124, 12);
            byte[] content = readContent(in, size);
            switch (type) {
                case 'x' -> pax.putAll(paxRecords(content));
                case 'g' -> { } // global pax header: nothing this reader needs
                case 'L' -> longName = text(content, 0, content.length);
                default -> {
                    String name = text(header, 0, 100);
                    String prefix = text(header, 345, 155);
                    String path = pax.getOrDefault("path", longName != null ? longName
                            : prefix.isEmpty() ? name : prefix + "/" + name);
                    Entry entry = new Entry(normalize(path), type, (int) number(header, 100, 8),
                            Long.parseLong(pax.getOrDefault("uid", String.valueOf(number(header, 108, 8)))),
                            Long.parseLong(pax.getOrDefault("gid", String.valueOf(number(header, 116, 8)))),
                            Long.parseLong(pax.getOrDefault("size", String.valueOf(size))),
                            pax.containsKey("mtime") ? (long) Double.parseDouble(pax.get("mtime"))
                                    : number(header, 136, 12));
                    visitor.visit(entry, new java.io.ByteArrayInputStream(content));
                    pax.clear();
                    longName = null;
                }
            }
        }
    }

    private static byte[] readContent(InputStream in, long size) throws IOException {
        if (size > Integer.MAX_VALUE - 1024) {
            throw new IOException("tar entry of " + size + " bytes");
        }
        byte[] content = new byte[(int) size];
        if (size > 0 && !readFully(in, content)) {
            throw new IOException("truncated tar");
        }
        long padding = (512 - size % 512) % 512;
        in.readNBytes((int) padding);
        return content;
    }

    private static Map<String, String> paxRecords(byte[] content) {
        Map<String, String> records = new HashMap<>();
        int at = 0;
        while (at < content.length) {
            int space = at;
            while (content[space] != ' ') {
                space++;
            }
            int length = Integer.parseInt(new String(content, at, space - at, StandardCharsets.US_ASCII));
            String record = new String(content, space + 1, length - (space + 1 - at) - 1, StandardCharsets.UTF_8);
            int equals = record.indexOf('=');
            records.put(record.substring(0, equals), record.substring(equals + 1));
            at += length;
        }
        return records;
    }

    private static String normalize(String path) {
        String p = path;
        while (p.startsWith("./") || p.startsWith("/")) {
            p = p.substring(p.startsWith("./") ? 2 : 1);
        }
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    private static long number(byte[] header, int offset, int length) {
        if ((header[offset] & 0x80) != 0) { // base-256, for values too large for octal
            long value = header[offset] & 0x7f;
            for (int i = 1; i < length; i++) {
                value = (value << 8) | (header[offset + i] & 0xff);
            }
            return value;
        }
        String octal = text(header, offset, length).trim();
        return octal.isEmpty() ? 0 : Long.parseLong(octal, 8);
    }

    private static String text(byte[] bytes, int offset, int length) {
        int end = offset;
        while (end < offset + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static boolean isZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean readFully(InputStream in, byte[] buffer) throws IOException {
        int read = in.readNBytes(buffer, 0, buffer.length);
        if (read == 0) {
            return false;
        }
        if (read < buffer.length) {
            throw new IOException("truncated tar");
        }
        return true;
    }
}
