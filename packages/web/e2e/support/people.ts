// Signed-in browser contexts of the suite: the API as that person, a viewer invited into a
// project, the same person in both themes for the accessibility and screenshot checks, and the
// owner of the usual checkout app.
import type { CreatedApiKey } from "@sightline/contracts";
import { beforeAll } from "vitest";
import { type Opened, signInFast } from "./browser";
import { type Api, apiAs, seedCheckout } from "./seed";
import type { BrowserSuite } from "./suite";

/** A new context of the suite, signed in as `email`. */
export async function openSignedIn(suite: BrowserSuite, email: string): Promise<Opened> {
  const opened = await suite.open();
  await signInFast(opened.context, suite.server, email);
  return opened;
}

/** Signs `opened` in as `email` and returns the API as that person. */
export async function signedInApi(suite: BrowserSuite, opened: Opened, email: string): Promise<Api> {
  await signInFast(opened.context, suite.server, email);
  return apiAs(opened.context.request, suite.server);
}

/**
 * Signs `opened` in as `email`, then makes that person a viewer of `project` by an invitation
 * `ownerApi` sends and the person accepts; signed in first, so the sign-in helper reads the
 * sign-in mail, not the invitation's. Returns the API as the viewer.
 */
export async function signedInViewer(
  suite: BrowserSuite,
  opened: Opened,
  email: string,
  ownerApi: Api,
  project = "shop",
): Promise<Api> {
  const api = await signedInApi(suite, opened, email);
  await ownerApi.post(`/projects/${project}/invitations`, { email, role: "viewer" });
  const { invitations } = await api.get<{ invitations: Array<{ id: string }> }>("/users/invitations");
  await api.post("/invitations/accept", { id: invitations[0]?.id });
  return api;
}

export type Theme = "light" | "dark";

/** `light` as it is, then a new dark context signed in as the same person. */
export async function inBothThemes(
  suite: BrowserSuite,
  light: Opened,
  email: string,
): Promise<ReadonlyArray<readonly [Theme, Opened]>> {
  const dark = await suite.open({ colorScheme: "dark" });
  await signInFast(dark.context, suite.server, email);
  return [
    ["light", light],
    ["dark", dark],
  ];
}

/** The signed-in owner of the project "Shop" with its checkout app, and that app's key. */
export interface CheckoutOwner extends Opened {
  readonly api: Api;
  readonly key: CreatedApiKey;
}

/**
 * Call inside `describe`, after `browserSuite`: registers the beforeAll (it runs before the
 * file's own) that opens a context signed in as `email` and seeds "Shop" with the checkout app
 * (`seedCheckout`); the returned owner is filled in by then.
 */
export function checkoutOwner(
  suite: BrowserSuite,
  email: string,
  options: { open?: Parameters<BrowserSuite["open"]>[0]; seed?: Parameters<typeof seedCheckout>[1] } = {},
): CheckoutOwner {
  let state: { opened: Opened; api: Api; key: CreatedApiKey } | undefined;
  beforeAll(async () => {
    const opened = await suite.open(options.open);
    const api = await signedInApi(suite, opened, email);
    state = { opened, api, key: await seedCheckout(api, options.seed) };
  });
  const ready = () => {
    if (state === undefined) throw new Error(`${email} is not signed in yet (checkoutOwner's beforeAll)`);
    return state;
  };
  return {
    get context() {
      return ready().opened.context;
    },
    get page() {
      return ready().opened.page;
    },
    get problems() {
      return ready().opened.problems;
    },
    close: () => ready().opened.close(),
    get api() {
      return ready().api;
    },
    get key() {
      return ready().key;
    },
  };
}
