// The host side of the test page for the MCP Apps views, bundled for the browser by test/mcp/appHost.ts: the real
// ext-apps AppBridge, which renders a view's document in a sandboxed iframe and speaks to it over postMessage. The
// tool results come from the test (which called the tools), not from an MCP client in the page.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

let bridge;
const sizes = [];

window.sightlineHost = {
  /** Renders the view's html in a sandboxed frame (scripts only: an opaque origin) and waits for its handshake. */
  async open(html, hostContext) {
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.title = 'MCP App view';
    iframe.style.cssText = 'display:block;width:100%;height:200px;border:0';
    document.body.append(iframe);
    bridge = new AppBridge(null, { name: 'sightline-test-host', version: '1.0.0' }, {}, { hostContext });
    bridge.onsizechange = ({ height }) => {
      if (height === undefined) return;
      sizes.push(height);
      iframe.style.height = `${height}px`;
    };
    const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
    // Listening before the document loads, so the view's first message is heard.
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = html;
    await initialized;
  },
  async show(args, result) {
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
  },
  /** A second result of the same view, as a host sends when the tool is called again. */
  showAgain(result) {
    return bridge.sendToolResult(result);
  },
  setHostContext(context) {
    bridge.setHostContext(context);
  },
  teardown() {
    return bridge.teardownResource({});
  },
  sizes() {
    return sizes;
  },
};
