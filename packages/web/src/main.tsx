// Entry point: fonts and global styles, the query client, the router, and the one place that
// turns "the session has ended" (any 401) into a trip to sign-in with a message.
import "@fontsource-variable/inter/wght.css";
import "./styles/tokens.css";
import "./styles/base.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ToastProvider } from "./components/ui/Toast";
import { onUnauthorized } from "./lib/api-client";
import { sessionQuery } from "./lib/queries";
import { createQueryClient } from "./lib/query-client";
import { createAppRouter } from "./router";

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

onUnauthorized(() => {
  const { pathname, href } = router.state.location;
  // Sign-in pages expect 401s; everywhere else the session ended under the person's feet.
  if (pathname.startsWith("/auth/")) return;
  // No session was ever known here (a first visit): nothing ended; the route check sends the
  // visitor to sign-in without the "session ended" message.
  if ((queryClient.getQueryData(sessionQuery.queryKey) ?? null) === null) return;
  queryClient.clear();
  void router.navigate({ to: "/auth/sign-in", search: { next: href, reason: "ended" }, replace: true });
});

const container = document.getElementById("root");
if (container === null) throw new Error("index.html has no #root");
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
