// The write-time re-check applies a personal access token's cap exactly as the preHandler does:
// a scope carrying a read-only grant is refused a write (403), one limited to other projects is
// not found (404), and a read-write grant passes with the owner's role — on every backend.
import type { TokenGrant } from "../../src/http/bearer-auth.js";
import { reauthorize } from "../../src/modules/access/index.js";
import { mintProjectScope } from "../../src/modules/access/scope.js";
import { AppError } from "../../src/errors.js";
import { createProjectsRepo } from "../../src/stores/metadata/repos/projects.repo.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { metadataBackends } from "../support/metadata.js";
import { type Person, person } from "../support/team.js";

const grant = (overrides: Partial<TokenGrant>): TokenGrant => ({
  id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21",
  prefix: "sl_pat_abcdefghi",
  scope: "read-write",
  projectIds: null,
  ...overrides,
});

describe.each(metadataBackends())("reauthorize with a token's grant on $name", (backend) => {
  let ctx: TestContext;
  let owner: Person;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    owner = await person(ctx, "owner@write-check.test");
    expect((await owner.client.post("/api/v1/projects", { name: "Shop", slug: "shop" })).statusCode).toBe(
      201,
    );
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function recheck(tokenGrant: TokenGrant) {
    const db = ctx.deps.metadata.db;
    const project = await createProjectsRepo(db).findLiveBySlug("shop");
    if (project === undefined) throw new Error("no project");
    const scope = mintProjectScope(owner.userId, "owner", project, tokenGrant);
    return db.transaction().execute((trx) => reauthorize(trx, scope, "apps:write"));
  }

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "passed",
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );

  it("refuses a read-only token's write with 403", async () => {
    expect(await codeOf(recheck(grant({ scope: "read" })))).toBe("forbidden");
  });

  it("answers 404 to a token limited to other projects", async () => {
    expect(await codeOf(recheck(grant({ projectIds: ["another"] })))).toBe("not_found");
  });

  it("lets a read-write token write with the owner's role, keeping the grant", async () => {
    const scope = await recheck(grant({}));
    expect(scope.role).toBe("owner");
    expect(scope.grant?.scope).toBe("read-write");
  });
});
