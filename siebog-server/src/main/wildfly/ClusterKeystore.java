import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.Set;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes the keystore that JGroups' SYM_ENCRYPT takes the cluster's AES key from (cluster-profile.cli),
 * derived from the cluster secret: every node that has the secret makes the same key by itself, so the
 * secret is the one thing a cluster's hosts share (a Docker secret, a file on each domain host), never a
 * keystore file to copy around. PKCS12, the key under alias {@code siebog-cluster}, the keystore and the
 * key protected by the secret itself (the node opens it with the same SIEBOG_CLUSTER_SECRET).
 *
 * <p>The key is PBKDF2-HMAC-SHA256 of the secret with a fixed salt: the secret is random (launcher/
 * cluster-secret.sh makes 32 letters and digits, about 190 bits), so the derivation only has to be one
 * way; the iterations slow down guessing a secret a person chose.
 *
 * <p>Usage: {@code SIEBOG_CLUSTER_SECRET=... java ClusterKeystore.java KEYSTORE} (a JDK runs the source
 * as it is; the Docker image runs the compiled class). The secret comes from the environment, not the
 * command line, which ps shows to every user.
 */
public final class ClusterKeystore {

    static final String ALIAS = "siebog-cluster";
    private static final byte[] SALT = "siebog-cluster-key-v1".getBytes(StandardCharsets.UTF_8);
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
        byte[] key = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password, SALT, ITERATIONS, 256)).getEncoded();

        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, password);
        store.setEntry(ALIAS, new KeyStore.SecretKeyEntry(new SecretKeySpec(key, "AES")),
                new KeyStore.PasswordProtection(password));

        Path target = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(target.getParent());
        // Written beside the target with mode 600 from the start, then moved over it: no moment at which
        // another user could read it, nor a half-written keystore.
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
