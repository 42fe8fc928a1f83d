// The metadata store suite, written once and run on SQLite always and on PostgreSQL when
// TEST_DATABASE_URL is set: migrations, durability across reopen, and the shared rate limiter.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Clock } from "../../src/clock.js";
import { isAppError } from "../../src/errors.js";
import { createRateLimiter } from "../../src/modules/rate-limits/rate-limits.service.js";
import {
  createRateLimitsRepo,
  type MetadataStore,
  openMetadataStore,
} from "../../src/stores/metadata/index.js";
import { metadataMigrations } from "../../src/stores/metadata/migrations/index.js";
import {
  createPostgresSchema,
  type MetadataBackend,
  metadataBackends,
  type PostgresSchema,
} from "../support/metadata.js";

class ManualClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

describe.each(metadataBackends())("metadata store on $name", (backend: MetadataBackend) => {
  let dir: string;
  let pgSchema: PostgresSchema | undefined;
  const open: MetadataStore[] = [];

  function openStore(): MetadataStore {
    const store = openMetadataStore({
      databaseUrl: backend.databaseUrl,
      sqlitePath: join(dir, "meta.sqlite"),
      postgresSchema: pgSchema?.schema,
    });
    open.push(store);
    return store;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-meta-"));
    pgSchema =
      backend.name === "postgres" ? await createPostgresSchema(backend.databaseUrl as string) : undefined;
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
    await pgSchema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("applies the whole migration chain once, then nothing", async () => {
    const store = openStore();
    expect(await store.migrate()).toEqual(Object.keys(metadataMigrations));
    expect(await store.migrate()).toEqual([]);
    expect(store.engine).toBe(backend.name);
  });

  it("keeps committed rows across a close and reopen", async () => {
    const first = openStore();
    await first.migrate();
    const repo = createRateLimitsRepo(first.db);
    await repo.increment("durable:x", "2026-11-21T06:00:00.000Z", "2026-11-21T06:01:00.000Z");
    await repo.increment("durable:x", "2026-11-21T06:00:00.000Z", "2026-11-21T06:01:00.000Z");
    await first.close();

    const second = openStore();
    expect(await second.migrate()).toEqual([]);
    const row = await second.db
      .selectFrom("rate_limit_counters")
      .select(["hits", "expires_at"])
      .where("bucket", "=", "durable:x")
      .executeTakeFirstOrThrow();
    expect({ hits: Number(row.hits), expires_at: row.expires_at }).toEqual({
      hits: 2,
      expires_at: "2026-11-21T06:01:00.000Z",
    });
  });

  it("answers ping while open and fails it after close", async () => {
    const store = openStore();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });

  it("counts concurrent hits atomically", async () => {
    const store = openStore();
    await store.migrate();
    const limiter = createRateLimiter(
      createRateLimitsRepo(store.db),
      new ManualClock(new Date("2026-11-21T06:00:10Z")),
    );
    const rule = { name: "probe", limit: 5, windowSeconds: 60 };
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => limiter.hit(rule, "subject")));
    expect(verdicts.map((v) => v.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it("limits per window and subject, and says when to retry", async () => {
    const store = openStore();
    await store.migrate();
    const clock = new ManualClock(new Date("2026-11-21T06:00:45Z"));
    const limiter = createRateLimiter(createRateLimitsRepo(store.db), clock);
    const rule = { name: "login", limit: 2, windowSeconds: 60 };
    await limiter.consume(rule, "a@b.c", "too many");
    await limiter.consume(rule, "a@b.c", "too many");
    const refused = await limiter.consume(rule, "a@b.c", "too many").catch((error: unknown) => error);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    expect(isAppError(refused) && refused.options.headers?.["retry-after"]).toBe("15");
    await expect(limiter.consume(rule, "other@b.c", "too many")).resolves.toBeUndefined();
    clock.advance(15_000);
    await expect(limiter.consume(rule, "a@b.c", "too many")).resolves.toBeUndefined();
  });

  it("sweeps expired windows", async () => {
    const store = openStore();
    await store.migrate();
    const repo = createRateLimitsRepo(store.db);
    await repo.increment("old", "2026-11-21T05:00:00.000Z", "2026-11-21T05:01:00.000Z");
    await repo.increment("new", "2026-11-21T06:00:00.000Z", "2026-11-21T06:01:00.000Z");
    expect(await repo.deleteExpired("2026-11-21T06:00:30.000Z")).toBe(1);
    const left = await store.db.selectFrom("rate_limit_counters").select("bucket").execute();
    expect(left.map((row) => row.bucket)).toEqual(["new"]);
  });

  if (backend.name === "sqlite") {
    it("runs SQLite in WAL mode with foreign keys on and full sync", async () => {
      const store = openStore();
      await store.migrate();
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`PRAGMA ${name}`).execute(store.db)).rows[0] as object)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(await pragma("foreign_keys")).toBe(1);
      expect(await pragma("synchronous")).toBe(2);
      await store.close();
      // The file is a plain SQLite database another tool can open.
      const raw = new SQLite(join(dir, "meta.sqlite"), { readonly: true });
      expect(raw.prepare("select count(*) as n from kysely_migration").get()).toEqual({
        n: Object.keys(metadataMigrations).length,
      });
      raw.close();
    });
  }
});
