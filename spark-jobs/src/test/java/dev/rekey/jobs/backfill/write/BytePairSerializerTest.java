package dev.rekey.jobs.backfill.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The sort shuffle's (byte[], byte[]) records through {@link BytePairSerializer}, as Spark uses it.
 */
class BytePairSerializerTest {
  private static final ClassTag<Object> ANY = ClassTag$.MODULE$.Any();

  private static byte[] stream(SerializerInstance s, byte[][] keys, byte[][] values) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SerializationStream out = s.serializeStream(bytes);
    for (int i = 0; i < keys.length; i++) {
      out.writeKey(keys[i], ANY);
      out.writeValue(values[i], ANY);
    }
    out.close();
    return bytes.toByteArray();
  }

  @Test
  void pairsComeBackInOrderAndTheStreamEndsAtItsEnd() throws Exception {
    byte[][] keys = {new byte[0], {1, (byte) 0xff}, new byte[70_000]};
    byte[][] values = {{7}, new byte[0], {(byte) 0x80, 0}};
    Arrays.fill(keys[2], (byte) 0xab);
    // the serializer is shipped with the shuffle's dependency: it must survive Java serialization
    ByteArrayOutputStream shipped = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(shipped)) {
      o.writeObject(new BytePairSerializer());
    }
    BytePairSerializer serializer;
    try (ObjectInputStream i =
        new ObjectInputStream(new ByteArrayInputStream(shipped.toByteArray()))) {
      serializer = (BytePairSerializer) i.readObject();
    }
    SerializerInstance s = serializer.newInstance();
    byte[] written = stream(s, keys, values);
    assertEquals(6 * 4 + 2 + 70_000 + 1 + 2, written.length, "lengths and bytes only");
    Iterator<Tuple2<Object, Object>> it =
        s.deserializeStream(new ByteArrayInputStream(written)).asKeyValueIterator();
    for (int i = 0; i < keys.length; i++) {
      assertTrue(it.hasNext());
      Tuple2<Object, Object> t = it.next();
      assertArrayEquals(keys[i], (byte[]) t._1());
      assertArrayEquals(values[i], (byte[]) t._2());
    }
    assertFalse(it.hasNext());
    // one record on its own
    byte[] one = {3, 1, 4};
    assertArrayEquals(one, (byte[]) s.deserialize(s.serialize(one, ANY), ANY));
  }

  @Test
  void aStreamCutInsideARecordOrPairFailsInsteadOfEndingEarly() {
    SerializerInstance s = new BytePairSerializer().newInstance();
    byte[] written = stream(s, new byte[][] {{1, 2, 3}}, new byte[][] {{4, 5, 6}});
    for (int cut : new int[] {2, 5, 7, written.length - 1}) {
      Iterator<Tuple2<Object, Object>> it =
          s.deserializeStream(new ByteArrayInputStream(Arrays.copyOf(written, cut)))
              .asKeyValueIterator();
      Exception e = assertThrows(Exception.class, it::hasNext, "cut at " + cut);
      assertTrue(e instanceof IOException, e.toString());
    }
  }

  @Test
  void anythingButAByteArrayIsRefused() {
    SerializationStream out =
        new BytePairSerializer().newInstance().serializeStream(new ByteArrayOutputStream());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> out.writeObject("row", ANY));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
  }
}
