package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NioLocalFileSystemTest {
  @TempDir java.nio.file.Path tmp;

  private static FileSystem nio() throws Exception {
    Configuration c = new Configuration();
    c.set("fs.file.impl", NioLocalFileSystem.class.getName());
    c.setBoolean("fs.file.impl.disable.cache", true);
    return FileSystem.get(java.net.URI.create("file:///"), c);
  }

  private static FileSystem hadoops() throws Exception {
    Configuration c = new Configuration();
    c.set("fs.file.impl", LocalFileSystem.class.getName());
    c.setBoolean("fs.file.impl.disable.cache", true);
    return FileSystem.get(java.net.URI.create("file:///"), c);
  }

  @Test
  void setsAndReadsPermissionsAsHadoopsOwnLocalFileSystem() throws Exception {
    FileSystem fs = nio();
    FileSystem ref = hadoops();
    Path dir = new Path(tmp.toUri().toString(), "d");
    fs.mkdirs(dir, new FsPermission((short) 0711));
    Path f = new Path(dir, "f");
    try (FSDataOutputStream out = fs.create(f)) {
      out.writeUTF("x");
    }
    assertEquals(
        "rwx--x--x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("d"))));
    fs.setPermission(f, new FsPermission((short) 0640));
    assertEquals(
        "rw-r-----",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("d/f"))));
    for (Path p : new Path[] {dir, f}) {
      FileStatus a = fs.getFileStatus(p);
      FileStatus b = ref.getFileStatus(p);
      assertEquals(b.getPermission(), a.getPermission(), p.toString());
      assertEquals(b.getOwner(), a.getOwner());
      assertEquals(b.getGroup(), a.getGroup());
      assertEquals(b.getLen(), a.getLen());
      assertEquals(b.isDirectory(), a.isDirectory());
    }
    FileStatus[] listed = fs.listStatus(dir);
    FileStatus[] refListed = ref.listStatus(dir);
    assertEquals(refListed.length, listed.length, "the file and its checksum");
    for (int i = 0; i < listed.length; i++) {
      assertEquals(refListed[i].getPath(), listed[i].getPath());
      assertEquals(refListed[i].getPermission(), listed[i].getPermission());
    }
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path(dir, "none")));
  }

  @Test
  void hasACanonicalServiceNameSoHBaseRenamesBulkLoadedFiles() throws Exception {
    assertEquals("file:///", nio().getCanonicalServiceName());
    assertEquals(null, hadoops().getCanonicalServiceName());
  }
}
