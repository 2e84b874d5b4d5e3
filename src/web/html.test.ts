import { describe, expect, it } from 'vitest';
import { html, SafeHtml } from './html.js';

describe('html templates', () => {
  it('escapes every interpolated value unless it is already safe markup', () => {
    const name = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>',
    );
    expect(html`<ul>${['a<', 'b'].map((item) => html`<li>${item}</li>`)}</ul>`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>');
    expect(html`${new SafeHtml('<b>ok</b>')}${null}${undefined}${false}${0}`.value).toBe('<b>ok</b>0');
  });
});
