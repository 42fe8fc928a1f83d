// Users and their stored profile pictures. A deleted user stays as an anonymised tombstone
// (id and timestamps) so references to it stay valid; its address is free to sign up again.
import type { Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, UserPicturesTable, UsersTable } from "../schema.js";

export type UserRow = Selectable<UsersTable>;
export type UserPictureRow = Selectable<UserPicturesTable>;

export interface UsersRepo {
  findLiveById(id: string): Promise<UserRow | undefined>;
  findLiveByEmail(email: string): Promise<UserRow | undefined>;
  /**
   * Creates a live user with this address unless one exists (a concurrent sign-up may win);
   * either way returns the live user.
   */
  insertOrFindLive(row: { id: string; email: string; now: string }): Promise<UserRow>;
  update(id: string, patch: Updateable<UsersTable>): Promise<UserRow>;
  /** Marks the user deleted and blanks every personal field. */
  anonymise(id: string, now: string): Promise<void>;
  findPicture(userId: string): Promise<UserPictureRow | undefined>;
  upsertPicture(row: UserPictureRow): Promise<void>;
  deletePicture(userId: string): Promise<void>;
}

export function createUsersRepo(db: Kysely<MetadataTables>): UsersRepo {
  const findLiveByEmail = (email: string) =>
    db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", email)
      .where("deleted_at", "is", null)
      .executeTakeFirst();

  return {
    findLiveById(id) {
      return db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
    },
    findLiveByEmail,
    async insertOrFindLive({ id, email, now }) {
      await db
        .insertInto("users")
        .values({
          id,
          email,
          password_hash: null,
          email_verified_at: now,
          picture_updated_at: null,
          created_at: now,
          updated_at: now,
          last_login_at: null,
          deleted_at: null,
        })
        // The conflict target names the partial index `users_email_live` (live rows only).
        .onConflict((oc) => oc.column("email").where("deleted_at", "is", null).doNothing())
        .execute();
      const user = await findLiveByEmail(email);
      if (user === undefined) throw new Error("live user vanished right after insert");
      return user;
    },
    update(id, patch) {
      return db.updateTable("users").set(patch).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
    },
    async anonymise(id, now) {
      await db
        .updateTable("users")
        .set({
          email: "",
          first_name: "",
          last_name: "",
          timezone: "UTC",
          password_hash: null,
          email_verified_at: null,
          picture_updated_at: null,
          last_login_at: null,
          updated_at: now,
          deleted_at: now,
        })
        .where("id", "=", id)
        .execute();
    },
    findPicture(userId) {
      return db.selectFrom("user_pictures").selectAll().where("user_id", "=", userId).executeTakeFirst();
    },
    async upsertPicture(row) {
      await db
        .insertInto("user_pictures")
        .values(row)
        .onConflict((oc) =>
          oc.column("user_id").doUpdateSet({
            content_type: row.content_type,
            content_base64: row.content_base64,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },
    async deletePicture(userId) {
      await db.deleteFrom("user_pictures").where("user_id", "=", userId).execute();
    },
  };
}
