// The texts of the e-mails the identity module sends. Plain text carries everything; the
// HTML part is the same content with a button, every interpolated value escaped.
import type { Mail } from "./mail.js";

export interface MagicLinkMailInput {
  readonly to: string;
  readonly url: string;
  readonly token: string;
  readonly validMinutes: number;
}

export function magicLinkMail({ to, url, token, validMinutes }: MagicLinkMailInput): Mail {
  const text = [
    "Sign in to Sightline",
    "",
    "Open this link to sign in:",
    url,
    "",
    "Or paste this code where you asked for the e-mail:",
    token,
    "",
    `The link and the code work once, for ${validMinutes} minutes.`,
    "If you did not ask to sign in, ignore this e-mail: nobody can sign in without it.",
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">Sign in to Sightline</h1>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 16px; background: #1f6feb; color: #fff; text-decoration: none; border-radius: 6px">Sign in</a></p>
<p>Or paste this code where you asked for the e-mail:</p>
<p><code style="font-size: 16px">${escapeHtml(token)}</code></p>
<p>The link and the code work once, for ${validMinutes} minutes.
If you did not ask to sign in, ignore this e-mail: nobody can sign in without it.</p>
</body></html>
`;
  return {
    to,
    subject: "Sign in to Sightline",
    text,
    html,
    devSummary: `magic link for ${to}: ${url}`,
  };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
