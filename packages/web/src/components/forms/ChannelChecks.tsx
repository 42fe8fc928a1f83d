// Picking the notification channels of a rule or an SLO: one checkbox a channel, or a line
// saying there are none yet.
import type { Channel } from "@sightline/contracts";
import type { ReactNode } from "react";
import { Checkbox } from "../ui/Field";
import { Checks, FormNote } from "./Form";

/** A channel with its kind, for pickers that mix kinds: "On-call (e-mail)". */
export const nameAndKind = (channel: Channel) =>
  `${channel.name} (${channel.type === "email" ? "e-mail" : channel.type})`;

export function ChannelChecks({
  channels,
  selected,
  onChange,
  label = (channel) => channel.name,
  none,
  wrap,
}: {
  /** Undefined while loading. */
  channels: readonly Channel[] | undefined;
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  label?: (channel: Channel) => string;
  /** What to say when the project has no channel. */
  none: ReactNode;
  wrap?: boolean;
}) {
  if (channels !== undefined && channels.length === 0) return <FormNote>{none}</FormNote>;
  return (
    <Checks wrap={wrap}>
      {(channels ?? []).map((channel) => (
        <Checkbox
          key={channel.id}
          label={label(channel)}
          checked={selected.includes(channel.id)}
          onChange={(event) =>
            onChange(
              event.target.checked ? [...selected, channel.id] : selected.filter((id) => id !== channel.id),
            )
          }
        />
      ))}
    </Checks>
  );
}
