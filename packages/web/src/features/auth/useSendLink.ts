// Asking for a sign-in link: the address it went to (the page then says "check your inbox"),
// and, when rate-limited, the seconds to wait from the server's Retry-After.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "../../lib/api-client";
import { requestMagicLink } from "./auth-api";
import { useCountdown } from "./useCountdown";

export function useSendLink() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [waitSeconds, startWait] = useCountdown();
  const mutation = useMutation({
    mutationFn: (address: string) => requestMagicLink({ email: address }),
    onSuccess: (_data, address) => setSentTo(address),
    onError: (error) => {
      if (isApiError(error) && error.retryAfterSeconds !== undefined) startWait(error.retryAfterSeconds);
    },
  });
  return {
    mutation,
    sentTo,
    waitSeconds,
    forget() {
      setSentTo(null);
      mutation.reset();
    },
  };
}
