// Signing out of this browser: the server revokes the session and clears the cookie; the
// dashboard forgets every cached answer and returns to sign-in saying so.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { Message } from "@sightline/contracts";
import { api } from "../../lib/api-client";
import type { SignInReason } from "../../lib/search";

export function useEndSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (reason: SignInReason) => {
    queryClient.clear();
    void navigate({ to: "/auth/sign-in", search: { reason }, replace: true });
  };
}

export function useSignOut() {
  const endSession = useEndSession();
  return useMutation({
    mutationFn: () => api.delete<Message>("/auth/session"),
    // Signed out either way: an already-ended session answers 401, which means the same.
    onSettled: () => endSession("signed-out"),
  });
}
