// The host side of the test page for the MCP Apps views, bundled for the browser by test/mcp/appHost.ts: a real MCP
// client (the SDK's v2 Client over Streamable HTTP, pinned to 2026-07-28) that talks to the running service, and the
// ext-apps AppBridge built on it, which renders a view in a sandboxed iframe and speaks to it over postMessage. The
// page does what a host does: finds the tool's view in tools/list, reads it, calls the tool and hands the result over.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri, PostMessageTransport, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';

const HOST_INFO = { name: 'sightline-test-host', version: '1.0.0' };

let client;
let bridge;
let toolName;
const sizes = [];

async function listAllTools() {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

window.sightlineHost = {
  /** Connects to the service's /mcp as a 2026-07-28 host that renders MCP Apps, with the workspace's key. */
  async connect(mcpUrl, key) {
    client = new Client(HOST_INFO, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  },
  /**
   * Finds the tool's view in tools/list, reads it and renders it in a sandboxed frame (scripts only: an opaque origin),
   * then waits for the view's handshake. Answers what the host saw of the resource, for the test to check.
   */
  async open(tool, hostContext) {
    toolName = tool;
    const listed = (await listAllTools()).find((each) => each.name === tool);
    const uri = listed === undefined ? undefined : getToolUiResourceUri(listed);
    if (uri === undefined) throw new Error(`tools/list names no view for ${tool}`);
    const [content] = (await client.readResource({ uri })).contents;
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.title = 'MCP App view';
    iframe.style.cssText = 'display:block;width:100%;height:200px;border:0';
    document.body.append(iframe);
    bridge = new AppBridge(client, HOST_INFO, { serverTools: {} }, { hostContext });
    bridge.onsizechange = ({ height }) => {
      if (height === undefined) return;
      sizes.push(height);
      iframe.style.height = `${height}px`;
    };
    const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
    // Listening before the document loads, so the view's first message is heard.
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = content.text;
    await initialized;
    return { uri, mimeType: content.mimeType, meta: content._meta };
  },
  /** Calls the tool through the service, as a model's call would be, and hands its input and result to the view. */
  async call(args) {
    await bridge.sendToolInput({ arguments: args });
    const result = await client.callTool({ name: toolName, arguments: args });
    await bridge.sendToolResult(result);
    return result;
  },
  setHostContext(context) {
    bridge.setHostContext(context);
  },
  async close() {
    await bridge.teardownResource({});
    await client.close();
  },
  sizes() {
    return sizes;
  },
};
