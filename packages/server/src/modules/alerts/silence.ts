// Judging a silence rule (ADR 0022): from the newest heartbeat of each environment of each app,
// how long the rule's scope has been silent and whether that reaches the rule's window. Pure.
import type { NewestBeat } from "../../stores/metadata/repos/app-heartbeats.repo.js";

export interface SilenceScope {
  /** Null: every live app of the project is watched, each on its own. */
  readonly appId: string | null;
  readonly environment: string | null;
}

export interface SilenceVerdict {
  /** Minutes since the newest beat of the longest-silent app; null when no app in scope ever beat. */
  readonly value: number | null;
  readonly breach: boolean;
  /** The newest beat of the longest-silent app. */
  readonly lastHeartbeatAt: string | null;
  /** Slugs of the apps silent for at least the window, longest silent first. */
  readonly silentApps: readonly string[];
}

/**
 * An app is silent when its newest beat in scope is `windowSeconds` old or older. A project rule
 * watches each app on its own (one silent app is enough); an app or environment that never sent
 * a heartbeat is not judged, so apps on SDKs without heartbeats never fire.
 */
export function judgeSilence(
  beats: readonly NewestBeat[],
  scope: SilenceScope,
  windowSeconds: number,
  nowMs: number,
): SilenceVerdict {
  const newestByApp = new Map<string, { slug: string; ms: number; at: string }>();
  for (const beat of beats) {
    if (scope.appId !== null && beat.appId !== scope.appId) continue;
    if (scope.environment !== null && beat.environment !== scope.environment) continue;
    const ms = Date.parse(beat.receivedAt);
    const seen = newestByApp.get(beat.appId);
    if (seen === undefined || ms > seen.ms)
      newestByApp.set(beat.appId, { slug: beat.appSlug, ms, at: beat.receivedAt });
  }
  const apps = [...newestByApp.values()].sort((a, b) => a.ms - b.ms || a.slug.localeCompare(b.slug));
  const oldest = apps[0];
  if (oldest === undefined) return { value: null, breach: false, lastHeartbeatAt: null, silentApps: [] };
  // A beat stamped by an instance whose clock runs ahead is not negative silence.
  const silentMs = (beat: { ms: number }) => Math.max(0, nowMs - beat.ms);
  const silentApps = apps.filter((app) => silentMs(app) >= windowSeconds * 1000).map((app) => app.slug);
  return {
    value: silentMs(oldest) / 60_000,
    breach: silentApps.length > 0,
    lastHeartbeatAt: oldest.at,
    silentApps,
  };
}
