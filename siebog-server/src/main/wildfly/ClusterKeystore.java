import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.Set;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Writes the keystore that the cluster's TLS between nodes takes its key and its trust from
 * (cluster-profile.cli: JGroups' TCP transport with mutual TLS), derived from the cluster secret: every
 * node that has the secret makes the same key pair and the same certificate by itself, so the secret is
 * the one thing a cluster's hosts share (a Docker secret, a file on each domain host), never a keystore
 * file to copy around. PKCS12, under alias {@code siebog-cluster}, the keystore and the key protected by
 * the secret itself (the node opens it with the same SIEBOG_CLUSTER_SECRET).
 *
 * <p>The key pair is Ed25519, whose private key is 32 bytes and whose signatures are deterministic
 * (RFC 8032): the 32 bytes are PBKDF2-HMAC-SHA256 of the secret with a fixed salt, so the self-signed
 * certificate, written here in DER with fixed names, serial and validity, is the same bytes on every
 * node. Each node trusts exactly that certificate, and asks the same of its peers: a node without the
 * secret has neither the key to prove itself nor the certificate to accept the others. The secret is
 * random (launcher/cluster-secret.sh makes 32 letters and digits, about 190 bits), so the derivation only
 * has to be one way; the iterations slow down guessing a secret a person chose.
 *
 * <p>Usage: {@code SIEBOG_CLUSTER_SECRET=... java ClusterKeystore.java KEYSTORE} (a JDK runs the source
 * as it is; the Docker image runs the compiled class). The secret comes from the environment, not the
 * command line, which ps shows to every user.
 */
public final class ClusterKeystore {

    static final String ALIAS = "siebog-cluster";
    private static final byte[] SALT = "siebog-cluster-tls-v1".getBytes(StandardCharsets.UTF_8);
    private static final int ITERATIONS = 210_000;
    /** Fewer characters than this is no secret for a cluster (the launcher makes 32). */
    private static final int MIN_SECRET_CHARS = 16;

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: SIEBOG_CLUSTER_SECRET=... java ClusterKeystore.java KEYSTORE");
            System.exit(2);
        }
        String secret = System.getenv("SIEBOG_CLUSTER_SECRET");
        if (secret == null || secret.length() < MIN_SECRET_CHARS) {
            System.err.println("ClusterKeystore: SIEBOG_CLUSTER_SECRET must hold the cluster secret, at least "
                    + MIN_SECRET_CHARS + " characters (launcher/cluster-secret.sh makes one)");
            System.exit(2);
        }
        char[] password = secret.toCharArray();
        byte[] seed = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password, SALT, ITERATIONS, 256)).getEncoded();
        KeyPair pair = ed25519(seed);
        Certificate certificate = selfSigned(pair);

        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, password);
        store.setKeyEntry(ALIAS, pair.getPrivate(), password, new Certificate[] {certificate});
        write(store, password, Path.of(args[0]).toAbsolutePath());
    }

    /** The Ed25519 key pair whose private key is {@code seed} (RFC 8032: the private key is 32 bytes, taken as they are). */
    static KeyPair ed25519(byte[] seed) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(255, new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) { // the generator asks for the private key's 32 bytes, once
                if (bytes.length != seed.length) {
                    throw new IllegalStateException("an Ed25519 generator asked for " + bytes.length + " random bytes");
                }
                System.arraycopy(seed, 0, bytes, 0, seed.length);
            }
        });
        return generator.generateKeyPair();
    }

    // ---- a self-signed X.509 certificate in DER, with nothing that varies from node to node

    private static final byte[] ED25519 = der(0x30, der(0x06, new byte[] {0x2B, 0x65, 0x70})); // AlgorithmIdentifier 1.3.101.112
    private static final byte[] NAME = der(0x30, der(0x31, der(0x30, der(0x06, new byte[] {0x55, 0x04, 0x03}), // CN
            der(0x0C, "siebog-cluster".getBytes(StandardCharsets.UTF_8)))));
    private static final byte[] VALIDITY = der(0x30, der(0x17, "200101000000Z".getBytes(StandardCharsets.US_ASCII)),
            der(0x18, "20991231235959Z".getBytes(StandardCharsets.US_ASCII)));

    /** A version 1 certificate: serial 1, issuer and subject CN=siebog-cluster, valid 2020–2099, signed by its own key. */
    static Certificate selfSigned(KeyPair pair) throws Exception {
        byte[] tbs = der(0x30, der(0x02, new byte[] {1}), ED25519, NAME, VALIDITY, NAME, pair.getPublic().getEncoded());
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(pair.getPrivate());
        signer.update(tbs);
        byte[] signature = signer.sign();
        byte[] bits = new byte[signature.length + 1]; // a BIT STRING: no unused bits, then the signature
        System.arraycopy(signature, 0, bits, 1, signature.length);
        byte[] certificate = der(0x30, tbs, ED25519, der(0x03, bits));
        return CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certificate));
    }

    /** One DER value: its tag, its length, then {@code parts} one after the other. */
    private static byte[] der(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        Arrays.stream(parts).forEach(content::writeBytes);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.size();
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else {
            out.write(0x82);
            out.write(length >> 8);
            out.write(length & 0xFF);
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }

    /**
     * Written beside the target with mode 600 from the start, then moved over it: no moment at which
     * another user could read it, nor a half-written keystore.
     */
    private static void write(KeyStore store, char[] password, Path target) throws Exception {
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), ".cluster-keystore", ".tmp",
                PosixFilePermissions.asFileAttribute(Set.of(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE)));
        try (var out = Files.newOutputStream(tmp)) {
            store.store(out, password);
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
