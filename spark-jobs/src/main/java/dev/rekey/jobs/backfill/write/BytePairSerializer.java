package dev.rekey.jobs.backfill.write;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.spark.serializer.DeserializationStream;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag;

/**
 * The serializer of the backfill's sort shuffle, whose records are (byte[] key, byte[] value)
 * pairs: each array written as its length (4 bytes) and its bytes, nothing else — no class ids, no
 * stream header, no state. It replaces Kryo there: Spark's shuffle writer for up to 200 partitions
 * opens one serialization stream per target partition in every map task, and each stream took a
 * Kryo instance of its own, built with every Scala class registered (~1 ms each; 16 per task for 16
 * regions, 32 for two targets, about a tenth of a 1M-row map stage's samples). Anything but a byte
 * array is refused, named.
 */
final class BytePairSerializer extends Serializer implements Serializable {
  private static final long serialVersionUID = 1L;

  @Override
  public SerializerInstance newInstance() {
    return new Instance();
  }

  private static byte[] bytes(Object o) {
    if (o instanceof byte[] b) {
      return b;
    }
    throw new IllegalArgumentException(
        "the backfill's shuffle carries byte arrays only, not "
            + (o == null ? "null" : o.getClass().getName()));
  }

  private static final class Instance extends SerializerInstance {
    @Override
    public <T> ByteBuffer serialize(T t, ClassTag<T> tag) {
      byte[] b = bytes(t);
      ByteBuffer out = ByteBuffer.allocate(4 + b.length);
      out.putInt(b.length).put(b).flip();
      return out;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T deserialize(ByteBuffer in, ClassTag<T> tag) {
      ByteBuffer b = in.duplicate();
      byte[] out = new byte[b.getInt()];
      b.get(out);
      return (T) out;
    }

    @Override
    public <T> T deserialize(ByteBuffer in, ClassLoader loader, ClassTag<T> tag) {
      return deserialize(in, tag);
    }

    @Override
    public SerializationStream serializeStream(OutputStream s) {
      return new Out(s);
    }

    @Override
    public DeserializationStream deserializeStream(InputStream s) {
      return new In(s);
    }
  }

  private static final class Out extends SerializationStream {
    private final DataOutputStream out;

    Out(OutputStream s) {
      this.out = new DataOutputStream(s);
    }

    @Override
    public <T> SerializationStream writeObject(T t, ClassTag<T> tag) {
      byte[] b = bytes(t);
      try {
        out.writeInt(b.length);
        out.write(b);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    @Override
    public void flush() {
      try {
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static final class In extends DeserializationStream {
    private final DataInputStream in;

    In(InputStream s) {
      this.in = new DataInputStream(s);
    }

    /**
     * The next array; at the end of the stream, between two arrays, an {@link EOFException}, which
     * Spark's record iterators take as the end (thrown through a signature that declares none, as
     * Scala allows). A stream that ends inside an array, or between a key and its value, is
     * damaged: an {@link IOException} that fails the task, never a silent end that would drop the
     * rest.
     */
    @Override
    public <T> T readObject(ClassTag<T> tag) {
      return read(true);
    }

    @Override
    public <T> T readValue(ClassTag<T> tag) {
      return read(false);
    }

    @SuppressWarnings("unchecked")
    private <T> T read(boolean mayEnd) {
      try {
        int first = in.read();
        if (first < 0) {
          if (mayEnd) {
            throw new EOFException();
          }
          throw new IOException(
              "the backfill's shuffle stream ends after a key, without its value");
        }
        byte[] b;
        try {
          b = new byte[(first << 24) | (in.readUnsignedByte() << 16) | in.readUnsignedShort()];
          in.readFully(b);
        } catch (EOFException inside) {
          throw new IOException("the backfill's shuffle stream ends inside a record", inside);
        }
        return (T) b;
      } catch (IOException e) {
        throw BytePairSerializer.<RuntimeException>sneaky(e);
      }
    }

    @Override
    public void close() {
      try {
        in.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
