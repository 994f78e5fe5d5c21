package dev.rekey.jobs.reconcile;

/**
 * The options reconcile and repair both take — the two sides, the time range, the buckets, the time
 * source, --via-snapshot — in one builder base, so both jobs read them the same way and a new side
 * option is added once.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class SidesBuilder<B extends SidesBuilder<B>> {
  protected SideSpec old;
  protected SideSpec neu;
  protected String from;
  protected String to;
  protected String bucket;
  protected String time;
  protected boolean viaSnapshot;

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  public B old(SideSpec v) {
    old = v;
    return self();
  }

  public B neu(SideSpec v) {
    neu = v;
    return self();
  }

  /**
   * ISO-8601 or epoch millis, inclusive; null (with {@link #to(String)} null too) = from the data
   * (reconcile) or from the reconcile report (repair).
   */
  public B from(String v) {
    from = v;
    return self();
  }

  /** ISO-8601 or epoch millis, exclusive. */
  public B to(String v) {
    to = v;
    return self();
  }

  public B from(long millis) {
    return from(Long.toString(millis));
  }

  public B to(long millis) {
    return to(Long.toString(millis));
  }

  /** 1h, 1d, 5m, PT5M, ... */
  public B bucket(String v) {
    bucket = v;
    return self();
  }

  /** key:FIELD or cell; null = the layouts' time field. */
  public B time(String v) {
    time = v;
    return self();
  }

  /**
   * Read live tables from snapshots taken (and deleted) for this run, not through their
   * RegionServers.
   */
  public B viaSnapshot(boolean v) {
    viaSnapshot = v;
    return self();
  }
}
