package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local filesystem for the embedded server and local staging, with two differences.
 *
 * <ul>
 *   <li><b>Permissions through {@code java.nio}.</b> Without Hadoop's native library (which Maven
 *       does not ship), the local filesystem starts a {@code chmod} process for every file and
 *       directory it creates and an {@code ls} for every permission it reads: about 20 ms each
 *       here, several per bulk-loaded file and per HFile written.
 *   <li><b>A canonical service name.</b> HBase renames a bulk-loaded file into the store only when
 *       both filesystems have the same one ({@code FSUtils.isSameHdfs}); the local filesystem has
 *       none, so a standalone server copied every loaded file twice where a cluster on HDFS renames
 *       it.
 * </ul>
 *
 * Set as {@code fs.file.impl}; on a filesystem without POSIX attributes it behaves as Hadoop's own.
 */
public final class NioLocalFileSystem extends LocalFileSystem {
  public NioLocalFileSystem() {
    super(new Raw());
  }

  @Override
  public String getCanonicalServiceName() {
    return "file:///";
  }

  /** The raw local filesystem with permissions read and set through {@code java.nio}. */
  public static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      java.nio.file.Path f = pathToFile(p).toPath();
      PosixFileAttributeView view =
          Files.getFileAttributeView(f, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      if (view == null || permission.getStickyBit()) {
        super.setPermission(p, permission);
        return;
      }
      view.setPermissions(posix(permission));
    }

    @Override
    public FileStatus getFileStatus(Path p) throws IOException {
      return withPermission(super.getFileStatus(p));
    }

    @Override
    public FileStatus[] listStatus(Path p) throws IOException {
      FileStatus[] all = super.listStatus(p);
      for (int i = 0; i < all.length; i++) {
        all[i] = withPermission(all[i]);
      }
      return all;
    }

    /** The status with its permission, owner and group read now, in-process. */
    private FileStatus withPermission(FileStatus s) throws IOException {
      if (s.isSymlink()) {
        return s;
      }
      PosixFileAttributes a;
      try {
        a =
            Files.readAttributes(
                pathToFile(s.getPath()).toPath(),
                PosixFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
      } catch (UnsupportedOperationException e) {
        return s; // no POSIX attributes here: Hadoop's own way
      } catch (java.nio.file.NoSuchFileException e) {
        throw new java.io.FileNotFoundException(s.getPath() + " does not exist");
      }
      return new FileStatus(
          s.getLen(),
          s.isDirectory(),
          s.getReplication(),
          s.getBlockSize(),
          s.getModificationTime(),
          s.getAccessTime(),
          fsPermission(a.permissions()),
          a.owner().getName(),
          a.group().getName(),
          s.getPath());
    }

    static Set<PosixFilePermission> posix(FsPermission p) {
      Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
      add(
          out,
          p.getUserAction(),
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);
      add(
          out,
          p.getGroupAction(),
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE);
      add(
          out,
          p.getOtherAction(),
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);
      return out;
    }

    static FsPermission fsPermission(Set<PosixFilePermission> s) {
      return new FsPermission(
          action(
              s,
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE),
          action(
              s,
              PosixFilePermission.GROUP_READ,
              PosixFilePermission.GROUP_WRITE,
              PosixFilePermission.GROUP_EXECUTE),
          action(
              s,
              PosixFilePermission.OTHERS_READ,
              PosixFilePermission.OTHERS_WRITE,
              PosixFilePermission.OTHERS_EXECUTE));
    }

    private static void add(
        Set<PosixFilePermission> out,
        FsAction a,
        PosixFilePermission r,
        PosixFilePermission w,
        PosixFilePermission x) {
      if (a.implies(FsAction.READ)) {
        out.add(r);
      }
      if (a.implies(FsAction.WRITE)) {
        out.add(w);
      }
      if (a.implies(FsAction.EXECUTE)) {
        out.add(x);
      }
    }

    private static FsAction action(
        Set<PosixFilePermission> s,
        PosixFilePermission r,
        PosixFilePermission w,
        PosixFilePermission x) {
      FsAction a = FsAction.NONE;
      if (s.contains(r)) {
        a = a.or(FsAction.READ);
      }
      if (s.contains(w)) {
        a = a.or(FsAction.WRITE);
      }
      if (s.contains(x)) {
        a = a.or(FsAction.EXECUTE);
      }
      return a;
    }
  }
}
