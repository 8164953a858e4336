// A minimal CopilotKit v2 page pointed straight at the Go example app's
// echo agent: no CopilotKit runtime. CopilotKit's own HttpAgent (its
// @ag-ui/client is 0.0.x) sends no protocolVersion, so the server serves
// it the pre-1.0 downgrade.
import { createRoot } from "react-dom/client";
import { CopilotChat, CopilotKitProvider, HttpAgent } from "@copilotkit/react-core/v2";
import "@copilotkit/react-core/v2/styles.css";

const agent = new HttpAgent({ url: "/agents/echo" });

createRoot(document.getElementById("root")).render(
  <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }} enableInspector={false}>
    <CopilotChat labels={{ chatInputPlaceholder: "Message" }} />
  </CopilotKitProvider>,
);
