// The sign-in calls of the auth pages. None of them answers a token: the cookie is the session.
import type {
  BrowserLinkSignInBody,
  BrowserPasswordSignInBody,
  BrowserSession,
  MagicLinkBody,
  Message,
} from "@sightline/contracts";
import { api } from "../../lib/api-client";

export const requestMagicLink = (body: MagicLinkBody) => api.post<Message>("/auth/magic-link", body);
export const signInWithLink = (body: BrowserLinkSignInBody) =>
  api.post<BrowserSession>("/auth/session", body);
export const signInWithPassword = (body: BrowserPasswordSignInBody) =>
  api.post<BrowserSession>("/auth/session/password", body);
