// The invitation e-mail: who invites whom to which project with which role, and the link that
// accepts it. Plain text carries everything; the HTML part adds a button, every value escaped.
import { INVITATION_TTL_DAYS, type Role } from "@sightline/contracts";
import { escapeHtml, type Mail } from "../auth/index.js";

export interface InvitationMailInput {
  readonly to: string;
  readonly inviter: string;
  readonly projectName: string;
  readonly role: Role;
  readonly url: string;
}

export function invitationMail({ to, inviter, projectName, role, url }: InvitationMailInput): Mail {
  const subject = `${inviter} invited you to ${projectName} on Sightline`;
  const text = [
    subject,
    "",
    `You are invited to join the project "${projectName}" as ${role}. Open this link to accept:`,
    url,
    "",
    `The link works once, for ${INVITATION_TTL_DAYS} days. If you have no Sightline account yet, ` +
      "signing in with this address creates one; then the link takes you to the invitation.",
    "If you do not know the sender, ignore this e-mail.",
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(subject)}</h1>
<p>You are invited to join the project <strong>${escapeHtml(projectName)}</strong> as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 16px; background: #1f6feb; color: #fff; text-decoration: none; border-radius: 6px">Accept the invitation</a></p>
<p>The link works once, for ${INVITATION_TTL_DAYS} days. If you have no Sightline account yet, signing in
with this address creates one; then the link takes you to the invitation.
If you do not know the sender, ignore this e-mail.</p>
</body></html>
`;
  return { to, subject, text, html, devSummary: `invitation for ${to}: ${url}` };
}
