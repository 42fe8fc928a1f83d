// The person at the foot of the sidebar: their account pages and signing out.
import type { UserProfile } from "@sightline/contracts";
import { useNavigate } from "@tanstack/react-router";
import { ChevronsUpDown, LogOut, ShieldCheck, UserRound } from "lucide-react";
import { Avatar } from "../ui/Avatar";
import { MenuContent, MenuItem, MenuLabel, MenuRoot, MenuSeparator, MenuTrigger } from "../ui/Menu";
import styles from "./Shell.module.css";
import { useSignOut } from "./useSignOut";

export function UserMenu({ profile }: { profile: UserProfile | undefined }) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = profile?.display_name ?? "…";
  return (
    <MenuRoot>
      <MenuTrigger asChild>
        <button type="button" className={styles.userButton}>
          <Avatar name={name} picture={profile?.picture ?? ""} />
          <span className={styles.userText}>
            <span className={styles.userName}>{name}</span>
            <span className={styles.userEmail}>{profile?.email ?? ""}</span>
          </span>
          <ChevronsUpDown size={15} aria-hidden="true" />
        </button>
      </MenuTrigger>
      <MenuContent side="top" label="Account">
        <MenuLabel>{profile?.email ?? "Account"}</MenuLabel>
        <MenuItem onSelect={() => void navigate({ to: "/account" })}>
          <UserRound size={15} aria-hidden="true" />
          Profile
        </MenuItem>
        <MenuItem onSelect={() => void navigate({ to: "/account/security" })}>
          <ShieldCheck size={15} aria-hidden="true" />
          Security and sessions
        </MenuItem>
        <MenuSeparator />
        <MenuItem onSelect={() => signOut.mutate()} disabled={signOut.isPending}>
          <LogOut size={15} aria-hidden="true" />
          Sign out
        </MenuItem>
      </MenuContent>
    </MenuRoot>
  );
}
