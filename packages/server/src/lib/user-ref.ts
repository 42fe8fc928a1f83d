// How a person appears to other people (members, inviters, audit actors): their address and
// display name, or "Deleted user" once the account is gone (its row is anonymised).
import type { UserRef } from "@sightline/contracts";

export interface UserFacts {
  readonly id: string;
  readonly email: string;
  readonly first_name: string;
  readonly last_name: string;
}

/** "First Last", else whichever is set, else the local part of the e-mail address. */
export function displayName(user: Pick<UserFacts, "first_name" | "last_name" | "email">): string {
  const name = [user.first_name, user.last_name].filter((part) => part !== "").join(" ");
  if (name !== "") return name;
  return user.email === "" ? "Deleted user" : (user.email.split("@")[0] ?? user.email);
}

export function userRefOf(user: UserFacts): UserRef {
  return { user_id: user.id, email: user.email, name: displayName(user) };
}

/** The profile picture's URL under `apiBaseUrl`, or "" when none is set. */
export function pictureUrlOf(
  apiBaseUrl: string,
  user: { readonly id: string; readonly picture_updated_at: string | null },
): string {
  if (user.picture_updated_at === null) return "";
  // The version parameter changes with every upload, so the URL can be cached forever.
  return `${apiBaseUrl}/users/${user.id}/picture?v=${Date.parse(user.picture_updated_at)}`;
}
