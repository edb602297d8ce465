/** The wizards' step for visitors without a token (spec §5: a prompt to sign in or register). */
export function SignInPrompt(props: { href: string; prompt: string; button: string; className?: string }) {
  return (
    <div className={`space-y-3 ${props.className ?? ''}`}>
      <p>{props.prompt}</p>
      <a className="btn-primary" href={props.href}>
        {props.button}
      </a>
    </div>
  );
}
