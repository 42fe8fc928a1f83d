// Dates are shown in the profile's IANA zone (the one the server buckets charts in), falling
// back to the browser's own until the profile has loaded.
import { useQuery } from "@tanstack/react-query";
import { meQuery } from "./queries";

export function useTimeZone(): string | undefined {
  return useQuery(meQuery).data?.timezone;
}
