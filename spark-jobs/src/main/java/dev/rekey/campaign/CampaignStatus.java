package dev.rekey.campaign;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.HtmlPage;
import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a campaign stands (result layer, pure): per table its verdict, its current (or last) step,
 * times, rows and result, from the plan and the state file. Renders {@link #console()}, {@link
 * #toJson()} (schema {@value #SCHEMA} version {@value #VERSION}, docs/campaigns.md) and {@link
 * #html()}; {@link #exitCode()} is the campaign's: 0 every table green, 3 any still differs (and
 * none failed), 1 any failed or not finished.
 */
public record CampaignStatus(
    String schema,
    int version,
    String campaign,
    String plan,
    String stateFile,
    Verdict verdict,
    int exitCode,
    List<TableStatus> tables)
    implements JobResult {
  public static final String SCHEMA = "rekey.campaign.status";
  public static final int VERSION = 1;

  /** A table's (or the campaign's) standing. */
  public enum Verdict {
    /** No step has begun. */
    NOT_STARTED,
    /** Some steps ended, some did not run yet (or a run was stopped in one). */
    INCOMPLETE,
    /** Every target reconciles with the old table. */
    GREEN,
    /** A target still differs (reconcile after any repair), or the backfill found cells missing. */
    DIFFERS,
    /** A step failed. */
    FAILED
  }

  /**
   * @param step the step running or last ended ({@link StepKey#id()}), null before any
   * @param rows the rows the backfill wrote (every shard), null before it ended
   */
  public record TableStatus(
      String id,
      String source,
      List<String> targets,
      String snapshot,
      Integer shards,
      Verdict verdict,
      String step,
      CampaignState.Status stepStatus,
      String startedAt,
      String endedAt,
      Double seconds,
      Long rows,
      String result,
      List<CampaignState.StepRecord> steps) {}

  public static CampaignStatus of(CampaignPlan plan, CampaignState state, String stateFile) {
    List<TableStatus> tables = new ArrayList<>();
    for (CampaignPlan.TablePlan t : plan.tables()) {
      CampaignState.TableState ts =
          state.table(t.id()).orElse(new CampaignState.TableState(t.id(), null, null, List.of()));
      tables.add(table(t, ts));
    }
    Verdict v = campaign(tables);
    return new CampaignStatus(
        SCHEMA,
        VERSION,
        plan.name(),
        String.valueOf(plan.file()),
        stateFile,
        v,
        switch (v) {
          case GREEN -> ExitCodes.OK;
          case DIFFERS -> ExitCodes.MISMATCH;
          default -> ExitCodes.FAILURE;
        },
        tables);
  }

  static Verdict campaign(List<TableStatus> tables) {
    if (tables.stream().anyMatch(t -> t.verdict() == Verdict.FAILED)) {
      return Verdict.FAILED;
    }
    if (tables.stream().allMatch(t -> t.verdict() == Verdict.NOT_STARTED)) {
      return Verdict.NOT_STARTED;
    }
    if (tables.stream()
        .anyMatch(t -> t.verdict() == Verdict.INCOMPLETE || t.verdict() == Verdict.NOT_STARTED)) {
      return Verdict.INCOMPLETE;
    }
    return tables.stream().anyMatch(t -> t.verdict() == Verdict.DIFFERS)
        ? Verdict.DIFFERS
        : Verdict.GREEN;
  }

  /** One table's verdict from its steps' records. */
  static Verdict verdict(CampaignPlan.TablePlan t, CampaignState.TableState s) {
    if (s.steps().isEmpty()) {
      return Verdict.NOT_STARTED;
    }
    if (s.steps().stream().anyMatch(r -> r.status() == CampaignState.Status.FAILED)) {
      return Verdict.FAILED;
    }
    if (s.steps().stream()
        .anyMatch(
            r ->
                r.step().startsWith(StepKey.Kind.BACKFILL.word)
                    && r.status() == CampaignState.Status.DIFFERS)) {
      return Verdict.DIFFERS;
    }
    boolean green = true;
    for (CampaignPlan.TargetPlan x : t.targets()) {
      var first = s.step(StepKey.of(StepKey.Kind.RECONCILE, x.table()).id());
      var again = s.step(StepKey.of(StepKey.Kind.RECONCILE_AGAIN, x.table()).id());
      var last = again.isPresent() ? again : first;
      if (last.isEmpty() || !last.get().status().ended()) {
        return Verdict.INCOMPLETE;
      }
      if (last.get().status() == CampaignState.Status.DIFFERS) {
        if (t.repair() && again.isEmpty()) {
          return Verdict.INCOMPLETE; // the repair and the second reconcile are still to run
        }
        green = false;
      }
    }
    return green ? Verdict.GREEN : Verdict.DIFFERS;
  }

  private static TableStatus table(CampaignPlan.TablePlan t, CampaignState.TableState s) {
    CampaignState.StepRecord current = null;
    for (CampaignState.StepRecord r : s.steps()) {
      if (r.status() == CampaignState.Status.RUNNING || current == null) {
        current = r;
      } else if (current.status() != CampaignState.Status.RUNNING) {
        current = r; // the last one recorded
      }
    }
    String started = s.steps().isEmpty() ? null : s.steps().get(0).startedAt();
    Verdict v = verdict(t, s);
    String ended =
        v == Verdict.GREEN || v == Verdict.DIFFERS || v == Verdict.FAILED
            ? current.endedAt()
            : null;
    Double seconds = null;
    if (started != null) {
      Instant end = ended != null ? Instant.parse(ended) : null;
      if (end != null) {
        seconds = Duration.between(Instant.parse(started), end).toMillis() / 1000.0;
      }
    }
    Long rows = null;
    for (CampaignState.StepRecord r : s.steps()) {
      if (r.step().startsWith(StepKey.Kind.BACKFILL.word) && r.rows() != null) {
        rows = (rows == null ? 0 : rows) + r.rows();
      }
    }
    return new TableStatus(
        t.id(),
        t.describeSource(),
        t.targets().stream().map(CampaignPlan.TargetPlan::table).toList(),
        s.snapshot(),
        s.shards(),
        v,
        current == null ? null : current.step(),
        current == null ? null : current.status(),
        started,
        ended,
        seconds,
        rows,
        current == null ? null : current.result(),
        s.steps());
  }

  /** The table printed by {@code rekey campaign status}. */
  @Override
  public String console() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "campaign %s: %s (%d table(s); state %s)%n",
            campaign,
            verdict,
            tables.size(),
            stateFile));
    b.append(
        String.format(
            Locale.ROOT,
            "%-28s %-11s %-32s %-8s %12s %9s  %s%n",
            "table",
            "verdict",
            "step",
            "status",
            "rows",
            "seconds",
            "result"));
    for (TableStatus t : tables) {
      b.append(
          String.format(
              Locale.ROOT,
              "%-28s %-11s %-32s %-8s %12s %9s  %s%n",
              t.id(),
              t.verdict(),
              t.step() == null ? "-" : t.step(),
              t.stepStatus() == null ? "-" : t.stepStatus(),
              t.rows() == null ? "-" : String.format(Locale.ROOT, "%,d", t.rows()),
              t.seconds() == null ? "-" : String.format(Locale.ROOT, "%.1f", t.seconds()),
              t.result() == null ? "" : t.result()));
    }
    return b.toString();
  }

  @Override
  public String toJson() {
    return Json.pretty(this) + "\n";
  }

  /** The campaign's page: inline, no scripts, like the other reports. */
  public String html() {
    HtmlPage page = new HtmlPage("rekey campaign " + campaign);
    page.h1("Campaign ", HtmlPage.code(campaign), ": ", mark(verdict));
    page.p(
        "Plan ",
        HtmlPage.code(plan),
        "; state ",
        HtmlPage.code(stateFile),
        "; ",
        tables.size() + " table(s), exit code " + exitCode + ".");
    HtmlPage.Table summary =
        new HtmlPage.Table(
            "table", "targets", "verdict", "step", "status", "started", "seconds", "rows",
            "result");
    for (TableStatus t : tables) {
      summary.rowWithClass(
          t.verdict() == Verdict.FAILED || t.verdict() == Verdict.DIFFERS ? "bad" : null,
          t.id(),
          String.join(", ", t.targets()),
          mark(t.verdict()),
          t.step() == null ? "-" : t.step(),
          t.stepStatus() == null ? "-" : t.stepStatus().toString(),
          t.startedAt() == null ? "-" : t.startedAt(),
          t.seconds() == null ? "-" : t.seconds(),
          t.rows() == null ? "-" : t.rows(),
          t.result() == null ? "" : t.result());
    }
    page.add(summary);
    for (TableStatus t : tables) {
      page.h2(
          HtmlPage.code(t.id()),
          " (" + t.source() + ")",
          t.shards() != null && t.shards() > 1 ? ", backfilled in " + t.shards() + " shards" : "",
          t.snapshot() != null ? ", snapshot " : "",
          t.snapshot() != null ? HtmlPage.code(t.snapshot()) : "");
      if (t.steps().isEmpty()) {
        page.p("No step has begun.");
        continue;
      }
      HtmlPage.Table steps =
          new HtmlPage.Table("step", "status", "started", "ended", "seconds", "rows", "result");
      for (CampaignState.StepRecord r : t.steps()) {
        steps.rowWithClass(
            r.status() == CampaignState.Status.FAILED || r.status() == CampaignState.Status.DIFFERS
                ? "bad"
                : null,
            r.step(),
            r.status().toString(),
            r.startedAt(),
            r.endedAt() == null ? "-" : r.endedAt(),
            r.seconds() == null ? "-" : r.seconds(),
            r.rows() == null ? "-" : r.rows(),
            r.result() == null ? "" : r.result());
      }
      page.add(steps);
      List<String> details = new ArrayList<>();
      for (CampaignState.StepRecord r : t.steps()) {
        if (r.detail() != null) {
          details.add(r.step() + ": " + r.detail());
        }
      }
      if (!details.isEmpty()) {
        page.list(details);
      }
    }
    return page.render();
  }

  private static HtmlPage.Markup mark(Verdict v) {
    return HtmlPage.span(
        v == Verdict.GREEN
            ? "ok"
            : v == Verdict.INCOMPLETE || v == Verdict.NOT_STARTED ? "" : "bad",
        v.toString());
  }
}
