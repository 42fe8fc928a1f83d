// Roles of a project's members and what each may do: the permission matrix, written once. The
// server authorizes every route with it, the docs render it, and clients may use it to hide
// controls a role cannot use. A role or permission not listed here grants nothing.
import { type Static, Type } from "typebox";

/** Highest first: where the server needs "the next role down" it walks this list. */
export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE = ["owner", "admin", "member", "viewer"] as const satisfies readonly Role[];
const MEMBERS_UP = ["owner", "admin", "member"] as const satisfies readonly Role[];
const ADMINS_UP = ["owner", "admin"] as const satisfies readonly Role[];
const OWNERS = ["owner"] as const satisfies readonly Role[];

/** Every permission, who holds it, and what it allows (rendered into docs/authorization.md). */
export const PERMISSIONS = {
  "project:read": {
    roles: EVERYONE,
    description: "See the project, its apps, environments, endpoints and members.",
  },
  "data:read": { roles: EVERYONE, description: "Search request and log records; read analytics." },
  "views:write": {
    roles: EVERYONE,
    description: "Save, change and delete one's own saved views, and share them with the project.",
  },
  "project:leave": { roles: EVERYONE, description: "Leave the project (not as its last owner)." },
  "apps:write": { roles: MEMBERS_UP, description: "Create, change and delete apps." },
  "environments:write": { roles: MEMBERS_UP, description: "Create, change and delete environments." },
  "endpoints:write": { roles: MEMBERS_UP, description: "Declare, change and delete endpoints." },
  "keys:manage": { roles: ADMINS_UP, description: "List, create and revoke API keys." },
  "members:manage": {
    roles: ADMINS_UP,
    description: "Invite people, revoke invitations, change roles and remove members (owners excepted).",
  },
  "project:write": { roles: ADMINS_UP, description: "Change the project's name, slug and description." },
  "audit:read": { roles: ADMINS_UP, description: "Read the project's audit log." },
  "owners:manage": {
    roles: OWNERS,
    description: "Invite, promote, demote and remove owners.",
  },
  "project:transfer": { roles: OWNERS, description: "Hand the ownership of the project to a member." },
  "project:delete": { roles: OWNERS, description: "Delete the project." },
  "alerts:read": {
    roles: EVERYONE,
    description: "See alert rules and SLOs, their state and history, and notification channels.",
  },
  "alerts:write": {
    roles: ADMINS_UP,
    description: "Create, change, delete and test alert rules, SLOs and notification channels.",
  },
  "contract:read": {
    roles: EVERYONE,
    description: "See the inferred API contract, its versions and changes, and the declared document.",
  },
  "contract:write": {
    roles: ADMINS_UP,
    description:
      "Upload and delete the declared API document; create and delete contract-change alert rules.",
  },
} as const satisfies Record<string, { roles: readonly Role[]; description: string }>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/** Whether `role` holds `permission`. Anything unknown — role or permission — is denied. */
export function roleCan(role: string, permission: string): boolean {
  const entry = (PERMISSIONS as Record<string, { roles: readonly string[] } | undefined>)[permission];
  return entry !== undefined && entry.roles.includes(role);
}

/** The role named by stored or received text, or undefined when it is not one we know. */
export function parseRole(text: string): Role | undefined {
  return (ROLES as readonly string[]).includes(text) ? (text as Role) : undefined;
}

/** The permissions a role holds, in catalogue order. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSION_NAMES.filter((permission) => roleCan(role, permission));
}

/** A role on the wire; `description` says whose role it is. */
export const roleSchema = (description = `One of: ${ROLES.join(", ")}.`) =>
  Type.Enum(ROLES, { description, examples: ["member"] });
export const RoleSchema = roleSchema();

export const PermissionSchema = Type.Enum(PERMISSION_NAMES, { examples: ["data:read"] });

/** A project the caller belongs to, with their role and what it allows (user context). */
export const ProjectAccessSchema = Type.Object(
  {
    id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
    slug: Type.String({ examples: ["shop"] }),
    name: Type.String({ examples: ["Shop"] }),
    role: RoleSchema,
    permissions: Type.Array(PermissionSchema),
  },
  { additionalProperties: false },
);
export type ProjectAccess = Static<typeof ProjectAccessSchema>;
