package dev.rekey.common;

import java.net.ConnectException;
import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * What an object store's failure means to the user of a job: which S3 endpoint, which step, and
 * whether it refused the credentials (bad input: exit 2, before anything is read) or could not be
 * reached (exit 1: start it, then --resume). Never a key: the messages name the settings and the
 * endpoint, and the SDK's own messages do not carry the keys.
 */
public final class ObjectStores {
  private ObjectStores() {}

  /** Whether {@code p} is on S3 ({@code s3a://}, {@code s3://}, {@code s3n://}). */
  public static boolean isS3(Path p) {
    String scheme = p.toUri().getScheme();
    return scheme != null && scheme.startsWith("s3");
  }

  /**
   * The endpoint a path on S3 reaches: the bucket's own {@code fs.s3a.bucket.B.endpoint}, else
   * {@code fs.s3a.endpoint}, else AWS's.
   */
  public static String endpoint(Path p, Configuration conf) {
    URI u = p.toUri();
    String bucket = u.getHost() != null ? u.getHost() : u.getAuthority();
    String e = bucket == null ? null : conf.getTrimmed("fs.s3a.bucket." + bucket + ".endpoint");
    if (e == null || e.isEmpty()) {
      e = conf.getTrimmed("fs.s3a.endpoint");
    }
    return e == null || e.isEmpty() ? "AWS S3 (the default endpoint)" : e;
  }

  /** S3 refused the request's credentials (403: a wrong key, a bad signature, access denied). */
  public static boolean credentialsRefused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.nio.file.AccessDeniedException) {
        return true;
      }
      String m = String.valueOf(t.getMessage());
      if (m.contains("InvalidAccessKeyId")
          || m.contains("SignatureDoesNotMatch")
          || m.contains("Status Code: 403")
          || m.contains("No AWS Credentials")) {
        return true;
      }
    }
    return false;
  }

  /** The endpoint could not be reached (refused connection, timeout, an HTTP request not made). */
  public static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException || t instanceof java.net.NoRouteToHostException) {
        return true;
      }
      String m = String.valueOf(t.getMessage());
      if (m.contains("Unable to execute HTTP request") || m.contains("Connection refused")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The failure of {@code step} on S3 path {@code p}, said so: a usage error when the credentials
   * were refused, a failure naming the endpoint when it could not be reached; empty when {@code p}
   * is not on S3 or the failure is neither.
   *
   * @param what e.g. "backfill t2"
   * @param next what to do after the fix, e.g. "rerun with --resume"
   */
  public static Optional<RekeyException> explain(
      String what, String step, Path p, Configuration conf, Throwable e, String next) {
    if (p == null || !isS3(p)) {
      return Optional.empty();
    }
    if (credentialsRefused(e)) {
      return Optional.of(
          new RekeyException(
              String.format(
                  "Cannot %s: S3 endpoint %s refused the credentials for %s during %s: %s (check"
                      + " fs.s3a.access.key and fs.s3a.secret.key where Hadoop reads them: the"
                      + " credential file of hadoop.security.credential.provider.path, the site"
                      + " files, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)",
                  what, endpoint(p, conf), p, step, RekeyException.oneLine(e)),
              ExitCodes.USAGE,
              e));
    }
    if (unreachable(e)) {
      return Optional.of(
          RekeyException.cannot(
              e,
              "Cannot %s: S3 endpoint %s could not be reached during %s of %s: %s (start it or fix"
                  + " fs.s3a.endpoint, then %s)",
              what,
              endpoint(p, conf),
              step,
              p,
              RekeyException.oneLine(e),
              next));
    }
    return Optional.empty();
  }
}
