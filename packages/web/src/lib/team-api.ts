// Every write the dashboard makes to a project's team: invitations (send, revoke, answer),
// members (role, removal or leaving) and handing the project over.
import type {
  AcceptedInvitation,
  AnswerInvitationBody,
  CreateInvitationBody,
  Invitation,
  Member,
  Members,
  Message,
  Role,
} from "@sightline/contracts";
import { api } from "./api-client";

const p = encodeURIComponent;

export const teamApi = {
  invite: (project: string, body: CreateInvitationBody) =>
    api.post<Invitation>(`/projects/${p(project)}/invitations`, body),
  revokeInvitation: (project: string, id: string) =>
    api.delete<Message>(`/projects/${p(project)}/invitations/${p(id)}`),
  changeRole: (project: string, userId: string, role: Role) =>
    api.patch<Member>(`/projects/${p(project)}/members/${p(userId)}`, { role }),
  /** With the caller's own id this is leaving the project. */
  removeMember: (project: string, userId: string) =>
    api.delete<Message>(`/projects/${p(project)}/members/${p(userId)}`),
  transferOwnership: (project: string, userId: string) =>
    api.post<Members>(`/projects/${p(project)}/transfer-ownership`, { user_id: userId }),
  accept: (body: AnswerInvitationBody) => api.post<AcceptedInvitation>("/invitations/accept", body),
  decline: (body: AnswerInvitationBody) => api.post<Message>("/invitations/decline", body),
};
