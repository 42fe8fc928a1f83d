// The profile: picture (upload, remove), names, and the time zone every date and chart uses,
// chosen from the IANA zones the browser knows, with the browser's own zone suggested.
import type { Message, PictureResult, UpdateProfileBody, UserProfile } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import { type FormEvent, useMemo, useRef } from "react";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { SelectField, TextField, Options } from "../../components/ui/Field";
import { useToast } from "../../components/ui/Toast";
import { FailureNotice, loadingOrFailed } from "../../components/ui/Feedback";
import { Card, Grid2, Stack, SubmitRow } from "../../components/ui/Surface";
import { useDraftForm } from "../../components/forms/useDraftForm";
import { api } from "../../lib/api-client";
import { keys, meQuery } from "../../lib/queries";
import { browserZone, supportedZones, zoneOptions } from "../../lib/timezones";
import styles from "./Account.module.css";

export function ProfilePage() {
  const me = useQuery(meQuery);
  const notLoaded = loadingOrFailed(me, { title: "Profile", what: "your profile" });
  if (me.data === undefined) return notLoaded;
  return (
    <>
      <PictureCard profile={me.data} />
      <ProfileForm
        key={`${me.data.first_name}\n${me.data.last_name}\n${me.data.timezone}`}
        profile={me.data}
      />
    </>
  );
}

function PictureCard({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<PictureResult>("/users/me/picture", form);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast("Picture updated");
    },
  });
  const remove = useMutation({
    mutationFn: () => api.delete<Message>("/users/me/picture"),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.me });
      toast("Picture removed");
    },
  });
  const error = upload.error ?? remove.error;
  return (
    <Card title="Picture" description="Shown next to your name. PNG, JPEG, WebP or GIF, up to 5 MB.">
      <div className={styles.pictureRow}>
        <Avatar name={profile.display_name} picture={profile.picture} size="lg" />
        <div className={styles.pictureActions}>
          <div className={styles.pictureButtons}>
            <Button onClick={() => input.current?.click()} busy={upload.isPending}>
              <Upload size={15} aria-hidden="true" />
              {profile.picture ? "Replace picture" : "Upload picture"}
            </Button>
            {profile.picture ? (
              <Button variant="ghost" onClick={() => remove.mutate()} busy={remove.isPending}>
                Remove
              </Button>
            ) : null}
          </div>
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="visually-hidden"
            aria-label="Picture file"
            tabIndex={-1}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) upload.mutate(file);
            }}
          />
          <FailureNotice error={error} fallback="The picture could not be changed." />
        </div>
      </div>
    </Card>
  );
}

interface ProfileDraft {
  first_name: string;
  last_name: string;
  timezone: string;
}

function ProfileForm({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { draft, set, save, error, bind } = useDraftForm<ProfileDraft, UserProfile>({
    initial: { first_name: profile.first_name, last_name: profile.last_name, timezone: profile.timezone },
    save: (current) =>
      api.patch<UserProfile>("/users/me", {
        first_name: current.first_name.trim(),
        last_name: current.last_name.trim(),
        timezone: current.timezone,
      } satisfies UpdateProfileBody),
    onSaved: (updated) => {
      queryClient.setQueryData(keys.me, updated);
      toast("Profile saved");
    },
  });
  const { timezone } = draft;
  const zones = useMemo(() => {
    const known = supportedZones();
    return zoneOptions(known.includes(profile.timezone) ? known : [profile.timezone, ...known]);
  }, [profile.timezone]);
  const local = browserZone();
  const dirty =
    draft.first_name.trim() !== profile.first_name ||
    draft.last_name.trim() !== profile.last_name ||
    timezone !== profile.timezone;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card title="Profile" description="Your name as others see it, and the time zone dates are shown in.">
      <form onSubmit={submit}>
        <Stack>
          <Grid2>
            <TextField label="First name" maxLength={150} autoComplete="given-name" {...bind("first_name")} />
            <TextField label="Last name" maxLength={150} autoComplete="family-name" {...bind("last_name")} />
          </Grid2>
          <TextField
            label="E-mail address"
            value={profile.email}
            readOnly
            hint="You sign in with this address."
          />
          <SelectField
            label="Time zone"
            {...bind("timezone")}
            hint="Dates, times and chart buckets use this zone."
          >
            <Options items={zones} value={(option) => option.zone} label={(option) => option.label} />
          </SelectField>
          {local !== timezone ? (
            <div className={styles.zoneRow}>
              <span>This browser is in {local.replaceAll("_", " ")}.</span>
              <button type="button" className={styles.linkButton} onClick={() => set({ timezone: local })}>
                Use {local.replaceAll("_", " ")}
              </button>
            </div>
          ) : null}
          <FailureNotice error={error} fieldsInline />
          <SubmitRow busy={save.isPending} disabled={!dirty}>
            Save profile
          </SubmitRow>
        </Stack>
      </form>
    </Card>
  );
}
