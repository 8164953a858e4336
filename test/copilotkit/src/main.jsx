// A minimal CopilotKit v2 page pointed straight at the Go example app: no
// CopilotKit runtime. CopilotKit's own HttpAgent (its @ag-ui/client is
// 0.0.x) sends no protocolVersion, so the server serves it the pre-1.0
// downgrade. The agent is /agents/echo, or /agents/<name> for
// ?agent=<name>; with ?agent=frontend the page registers a frontend tool
// (useFrontendTool) that the loop's model calls.
import { createRoot } from "react-dom/client";
import { CopilotChat, CopilotKitProvider, HttpAgent, useFrontendTool } from "@copilotkit/react-core/v2";
import "@copilotkit/react-core/v2/styles.css";
import { z } from "zod";

const route = new URLSearchParams(location.search).get("agent") ?? "echo";
const agent = new HttpAgent({ url: `/agents/${route}` });

// ThemeTool lets the agent change the page's theme colour; its result is
// what the agent's next turn sees.
function ThemeTool() {
  useFrontendTool({
    name: "set_theme_color",
    description: "Changes the colour of the page's theme.",
    parameters: z.object({ color: z.enum(["teal", "tomato"]) }),
    handler: async ({ color }) => {
      document.body.dataset.theme = color;
      document.body.style.borderTop = `6px solid ${color}`;
      return `The theme colour is now ${color}.`;
    },
  });
  return null;
}

createRoot(document.getElementById("root")).render(
  <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }} enableInspector={false}>
    {route === "frontend" && <ThemeTool />}
    <CopilotChat labels={{ chatInputPlaceholder: "Message" }} />
  </CopilotKitProvider>,
);
