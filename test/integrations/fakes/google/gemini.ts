import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from '../answerEngineServer.js';

/** A generateContent request (the fields the engine sends). */
export interface GenerateContentRequest {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: Array<{ role: string; parts: Array<{ text: string }> }>;
  tools: Array<{ googleSearch?: Record<string, never> }>;
}

const ENDPOINT = /^\/v1beta\/models\/([^/:]+):generateContent$/;

/**
 * A local Gemini API (POST /v1beta/models/{model}:generateContent) with Google Search grounding. Sources come as
 * `groundingChunks` whose `web.uri` is a grounding redirect link (served by this fake under /grounding-api-redirect/,
 * answering 302 to the real page) and whose `web.title` is the source's domain, as Gemini gives them; only the chunks
 * a `groundingSupports` entry points at are cited, the retrieved ones are not.
 */
export class FakeGemini extends FakeProvider<GenerateContentRequest> {
  protected readonly basePath = '/v1beta';
  private readonly redirects = new Map<string, string>();
  private redirectsWork = true;

  static async start(): Promise<FakeGemini> {
    const fake = new FakeGemini();
    await fake.listen();
    return fake;
  }

  /** From now on the redirect links answer 404, as expired ones do. */
  breakRedirects(): void {
    this.redirectsWork = false;
  }

  override reset(): void {
    super.reset();
    this.redirectsWork = true;
  }

  questionOf(request: RecordedRequest<GenerateContentRequest>): string {
    return request.body.contents.at(-1)?.parts.map((p) => p.text).join('') ?? '';
  }

  protected isEndpoint(method: string, path: string): boolean {
    return method === 'POST' && ENDPOINT.test(path);
  }

  protected override otherRoute(req: IncomingMessage, res: ServerResponse): boolean {
    const token = /^\/grounding-api-redirect\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'GET' || token === undefined) return false;
    const target = this.redirects.get(token);
    if (target === undefined || !this.redirectsWork) res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
    else res.writeHead(302, { location: target, 'content-type': 'text/html' }).end(`<a href="${target}">moved</a>`);
    return true;
  }

  protected payload(answer: ScriptedAnswer, request: RecordedRequest<GenerateContentRequest>): unknown {
    const cited = answer.citations ?? [];
    // Retrieved chunks come first, so a cited chunk's index is not its rank among the citations.
    const chunks = [...(answer.retrieved ?? []), ...cited].map((source) => {
      const token = `AUZIYQ${this.redirects.size}x${Math.random().toString(36).slice(2, 10)}`;
      this.redirects.set(token, source.url);
      return { web: { uri: `${this.origin}/grounding-api-redirect/${token}`, title: new URL(source.url).hostname.replace(/^www\./, '') } };
    });
    const firstCited = (answer.retrieved ?? []).length;
    const question = this.questionOf(request);
    return {
      candidates: [
        {
          content: { parts: [{ text: answer.text }], role: 'model' },
          finishReason: 'STOP',
          groundingMetadata: {
            webSearchQueries: [question],
            searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
            groundingChunks: chunks,
            groundingSupports: cited.map((_, i) => ({
              segment: { startIndex: 0, endIndex: answer.text.length, text: answer.text },
              groundingChunkIndices: [firstCited + i],
              confidenceScores: [0.93],
            })),
          },
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 14, candidatesTokenCount: 160, totalTokenCount: 174, toolUsePromptTokenCount: 410 },
      modelVersion: ENDPOINT.exec(request.path)![1],
      responseId: `gemini-${this.requests.length}`,
    };
  }
}
