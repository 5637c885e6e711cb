import { component$, type JSXOutput } from '@builder.io/qwik';
import { type Block, type Inline, parseMarkdown } from '../../lib/markdown';

/**
 * The editor's preview. Every piece of the body reaches the page as a text
 * node of an element created here (Qwik escapes text); nothing is ever set as
 * HTML. `html` bodies are shown as their source for the same reason.
 */
export const ArticlePreview = component$((props: { body: string; format: string }) => {
  if (props.format === 'markdown') return <div class="preview prose">{renderBlocks(parseMarkdown(props.body))}</div>;
  return (
    <div class="preview">
      {props.format === 'html' && (
        <p class="hint">HTML bodies are previewed as source: the admin never runs a body’s HTML.</p>
      )}
      <pre class="preview-plain">{props.body}</pre>
    </div>
  );
});

function renderBlocks(blocks: Block[]): JSXOutput[] {
  return blocks.map((b, i) => {
    switch (b.t) {
      case 'h': {
        const Tag = `h${Math.min(6, b.level + 1)}` as 'h2';
        return <Tag key={i}>{renderInline(b.c)}</Tag>;
      }
      case 'p':
        return <p key={i}>{renderInline(b.c)}</p>;
      case 'ul':
        return (
          <ul key={i}>
            {b.items.map((it, j) => (
              <li key={j}>{renderInline(it)}</li>
            ))}
          </ul>
        );
      case 'ol':
        return (
          <ol key={i}>
            {b.items.map((it, j) => (
              <li key={j}>{renderInline(it)}</li>
            ))}
          </ol>
        );
      case 'pre':
        return (
          <pre key={i}>
            <code>{b.v}</code>
          </pre>
        );
      case 'quote':
        return <blockquote key={i}>{renderBlocks(b.c)}</blockquote>;
      case 'hr':
        return <hr key={i} />;
    }
  });
}

function renderInline(nodes: Inline[]): JSXOutput[] {
  return nodes.map((n, i) => {
    switch (n.t) {
      case 'text':
        return <>{n.v}</>;
      case 'strong':
        return <strong key={i}>{renderInline(n.c)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(n.c)}</em>;
      case 'code':
        return <code key={i}>{n.v}</code>;
      case 'link':
        return (
          <a key={i} href={n.href} rel="noopener noreferrer nofollow" target="_blank">
            {renderInline(n.c)}
          </a>
        );
      case 'img':
        return <img key={i} src={n.src} alt={n.alt} loading="lazy" />;
    }
  });
}
