
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'sqsctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'sqsctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'sqsctl' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('queues', 'queues', [CompletionResultType]::ParameterValue, 'List queues with their depth, FIFO flag and dead-letter queue')
            [CompletionResult]::new('queue', 'queue', [CompletionResultType]::ParameterValue, 'Show, create, change or delete one queue, or print its URL')
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Send messages: one from the argument, or many from stdin')
            [CompletionResult]::new('receive', 'receive', [CompletionResultType]::ParameterValue, 'Receive messages (and with --delete, consume them)')
            [CompletionResult]::new('peek', 'peek', [CompletionResultType]::ParameterValue, 'Look at messages without consuming them')
            [CompletionResult]::new('consume', 'consume', [CompletionResultType]::ParameterValue, 'Run a command per message: delete it on success, retry it on failure')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete messages by receipt handle or by message id')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete every message in a queue')
            [CompletionResult]::new('visibility', 'visibility', [CompletionResultType]::ParameterValue, 'Change how long received messages stay hidden (0 releases them)')
            [CompletionResult]::new('redrive', 'redrive', [CompletionResultType]::ParameterValue, 'Move messages from a dead-letter queue back to their source (or any queue), safely')
            [CompletionResult]::new('groups', 'groups', [CompletionResultType]::ParameterValue, 'Show each message group (FIFO) or tenant (fair queue): backlog, in flight, blocked or noisy')
            [CompletionResult]::new('fifo', 'fifo', [CompletionResultType]::ParameterValue, 'Inspect FIFO queues')
            [CompletionResult]::new('browse', 'browse', [CompletionResultType]::ParameterValue, 'Browse a queue full screen: count, filter, mark, then redrive, delete, export or edit')
            [CompletionResult]::new('top', 'top', [CompletionResultType]::ParameterValue, 'Watch queue depths and rates, refreshed (full screen on a terminal, JSON lines otherwise)')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite')
            [CompletionResult]::new('local', 'local', [CompletionResultType]::ParameterValue, 'Run a local SQS-compatible server (no AWS account needed)')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Show sqsctl''s main job end to end on a local server')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packaging)')
            [CompletionResult]::new('consume-watchdog', 'consume-watchdog', [CompletionResultType]::ParameterValue, 'Stop the commands of a `consume` run once it is gone (started by `consume` itself)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;queues' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a queue (optionally FIFO, optionally with a dead-letter queue)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a queue and every message in it')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy')
            [CompletionResult]::new('url', 'url', [CompletionResultType]::ParameterValue, 'Print the URL of a queue')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Add tags to a queue, or change their values')
            [CompletionResult]::new('untag', 'untag', [CompletionResultType]::ParameterValue, 'Remove tags from a queue')
            [CompletionResult]::new('permission', 'permission', [CompletionResultType]::ParameterValue, 'Let other AWS accounts use a queue: list, add or remove permissions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;queue;info' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;create' {
            [CompletionResult]::new('--dlq', '--dlq', [CompletionResultType]::ParameterName, 'Dead-letter queue for messages received more than --max-receive times (created if missing)')
            [CompletionResult]::new('--max-receive', '--max-receive', [CompletionResultType]::ParameterName, 'Receives before a message moves to the dead-letter queue, 1-1000')
            [CompletionResult]::new('--visibility', '--visibility', [CompletionResultType]::ParameterName, 'How long a received message stays hidden (VisibilityTimeout, 0s-12h)')
            [CompletionResult]::new('--retention', '--retention', [CompletionResultType]::ParameterName, 'How long SQS keeps a message (MessageRetentionPeriod, 1m-14d)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, 0s-20s)')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Delay before a new message is visible (DelaySeconds, 0s-15m)')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Tag KEY=VALUE on the new queue, e.g. team=payments (repeatable)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--fifo', '--fifo', [CompletionResultType]::ParameterName, 'Create a FIFO queue (implied by a name ending in .fifo)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;delete' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;set' {
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)')
            [CompletionResult]::new('--visibility', '--visibility', [CompletionResultType]::ParameterName, 'How long a received message stays hidden (VisibilityTimeout, 0s-12h)')
            [CompletionResult]::new('--retention', '--retention', [CompletionResultType]::ParameterName, 'How long SQS keeps a message (MessageRetentionPeriod, 1m-14d)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, 0s-20s)')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Delay before a new message is visible (DelaySeconds, 0s-15m)')
            [CompletionResult]::new('--dlq', '--dlq', [CompletionResultType]::ParameterName, 'Dead-letter queue (name, URL or ARN) for messages received more than --max-receive times')
            [CompletionResult]::new('--max-receive', '--max-receive', [CompletionResultType]::ParameterName, 'Receives before a message moves to the dead-letter queue, 1-1000')
            [CompletionResult]::new('--allow-sources', '--allow-sources', [CompletionResultType]::ParameterName, 'As a dead-letter queue, accept messages only from these source queues (1-10)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--create-dlq', '--create-dlq', [CompletionResultType]::ParameterName, 'Create the --dlq queue when it does not exist (of the same type, 14 days retention)')
            [CompletionResult]::new('--no-dlq', '--no-dlq', [CompletionResultType]::ParameterName, 'Remove the redrive policy (messages are no longer moved to a dead-letter queue)')
            [CompletionResult]::new('--allow-all', '--allow-all', [CompletionResultType]::ParameterName, 'As a dead-letter queue, accept messages from any source queue')
            [CompletionResult]::new('--deny-all', '--deny-all', [CompletionResultType]::ParameterName, 'Accept no source queue (this queue cannot be a dead-letter queue)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;url' {
            [CompletionResult]::new('--account', '--account', [CompletionResultType]::ParameterName, 'Account that owns the queue (another account''s queue shared with yours)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;tag' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;untag' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;permission' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the statements of a queue''s policy: the permissions added, and any others')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow other AWS accounts actions on a queue (AddPermission)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a permission by its label (RemovePermission)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;queue;permission;list' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;permission;add' {
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Name of the permission (the statement''s Sid): 1-80 letters, digits, - and _')
            [CompletionResult]::new('--account', '--account', [CompletionResultType]::ParameterName, 'AWS account allowed, 12 digits (repeatable, or comma-separated)')
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, 'Action allowed, e.g. SendMessage, or * for all (repeatable, or comma-separated)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;permission;remove' {
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Label of the permission to remove (its Sid; `queue permission list` shows them)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;queue;permission;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the statements of a queue''s policy: the permissions added, and any others')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow other AWS accounts actions on a queue (AddPermission)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a permission by its label (RemovePermission)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;queue;permission;help;list' {
            break
        }
        'sqsctl;queue;permission;help;add' {
            break
        }
        'sqsctl;queue;permission;help;remove' {
            break
        }
        'sqsctl;queue;permission;help;help' {
            break
        }
        'sqsctl;queue;help' {
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a queue (optionally FIFO, optionally with a dead-letter queue)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a queue and every message in it')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy')
            [CompletionResult]::new('url', 'url', [CompletionResultType]::ParameterValue, 'Print the URL of a queue')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Add tags to a queue, or change their values')
            [CompletionResult]::new('untag', 'untag', [CompletionResultType]::ParameterValue, 'Remove tags from a queue')
            [CompletionResult]::new('permission', 'permission', [CompletionResultType]::ParameterValue, 'Let other AWS accounts use a queue: list, add or remove permissions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;queue;help;info' {
            break
        }
        'sqsctl;queue;help;create' {
            break
        }
        'sqsctl;queue;help;delete' {
            break
        }
        'sqsctl;queue;help;set' {
            break
        }
        'sqsctl;queue;help;url' {
            break
        }
        'sqsctl;queue;help;tag' {
            break
        }
        'sqsctl;queue;help;untag' {
            break
        }
        'sqsctl;queue;help;permission' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the statements of a queue''s policy: the permissions added, and any others')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow other AWS accounts actions on a queue (AddPermission)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a permission by its label (RemovePermission)')
            break
        }
        'sqsctl;queue;help;permission;list' {
            break
        }
        'sqsctl;queue;help;permission;add' {
            break
        }
        'sqsctl;queue;help;permission;remove' {
            break
        }
        'sqsctl;queue;help;help' {
            break
        }
        'sqsctl;send' {
            [CompletionResult]::new('--group-id', '--group-id', [CompletionResultType]::ParameterName, 'FIFO message group id (for records that carry none)')
            [CompletionResult]::new('--dedup-id', '--dedup-id', [CompletionResultType]::ParameterName, 'FIFO deduplication id; `auto` derives a stable one from each record''s content')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Message attribute NAME=VALUE or NAME:TYPE=VALUE (String, Number, Binary as base64); repeatable')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Delay before the message can be received, 0s-15m (standard queues)')
            [CompletionResult]::new('--trace-header', '--trace-header', [CompletionResultType]::ParameterName, 'X-Ray trace header (the AWSTraceHeader system attribute), e.g. Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Batches in flight at once (FIFO queues always send one at a time, to keep order)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Read stdin and send each line as one message body')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read stdin as JSON Lines message records (what `receive` writes)')
            [CompletionResult]::new('--skip-invalid', '--skip-invalid', [CompletionResultType]::ParameterName, 'With --lines/--jsonl: skip lines that are not valid messages (and report how many) instead of stopping (exit code 3 when every line was skipped)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;receive' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N messages (default 10; no limit with --until-empty)')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Stop after N messages (default 10; no limit with --until-empty)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Long-poll wait per request, 0s-20s')
            [CompletionResult]::new('--visibility', '--visibility', [CompletionResultType]::ParameterName, 'Visibility timeout of the received messages, 0s-12h (default: the queue''s)')
            [CompletionResult]::new('--attributes', '--attributes', [CompletionResultType]::ParameterName, 'System attributes to show: All (default) or names')
            [CompletionResult]::new('--message-attributes', '--message-attributes', [CompletionResultType]::ParameterName, 'Message attributes to show: All (default), names, or prefixes such as `trace.*`')
            [CompletionResult]::new('--count-by', '--count-by', [CompletionResultType]::ParameterName, 'Count messages per value of EXPR instead of writing them')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Receive requests in flight at once')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Write each message as this template instead of a record')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only messages whose body matches this regular expression')
            [CompletionResult]::new('--grep-v', '--grep-v', [CompletionResultType]::ParameterName, 'Leave out messages whose body matches this regular expression')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Only messages with this message attribute value (repeatable)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only messages for which this JMESPath expression is true')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Only messages sent more recently than this')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--until-empty', '--until-empty', [CompletionResultType]::ParameterName, 'Keep receiving until a long poll comes back empty')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep long-polling and writing messages as they arrive, until Ctrl-C (or --max)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep long-polling and writing messages as they arrive, until Ctrl-C (or --max)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete each message once written (asks first on a terminal)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation of --delete')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation of --delete')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Without --delete, read what the read guard refuses')
            [CompletionResult]::new('--unwrap', '--unwrap', [CompletionResultType]::ParameterName, 'Write the inner message of SNS and EventBridge envelopes')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;peek' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most this many messages (default 10; with --count-by, count every message)')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Show at most this many messages (default 10; with --count-by, count every message)')
            [CompletionResult]::new('--scan-limit', '--scan-limit', [CompletionResultType]::ParameterName, 'With filters, read at most this many messages looking for matches')
            [CompletionResult]::new('--attributes', '--attributes', [CompletionResultType]::ParameterName, 'System attributes to show: All (default) or names')
            [CompletionResult]::new('--message-attributes', '--message-attributes', [CompletionResultType]::ParameterName, 'Message attributes to show: All (default), names, or prefixes such as `trace.*`')
            [CompletionResult]::new('--count-by', '--count-by', [CompletionResultType]::ParameterName, 'Count messages per value of EXPR instead of writing them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Write each message as this template instead of a record')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only messages whose body matches this regular expression')
            [CompletionResult]::new('--grep-v', '--grep-v', [CompletionResultType]::ParameterName, 'Leave out messages whose body matches this regular expression')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Only messages with this message attribute value (repeatable)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only messages for which this JMESPath expression is true')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Only messages sent more recently than this')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each read counts toward it')
            [CompletionResult]::new('--unwrap', '--unwrap', [CompletionResultType]::ParameterName, 'Write the inner message of SNS and EventBridge envelopes')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Refused: peek cannot follow a queue (see `receive --follow`)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;consume' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Commands running at once')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Commands running at once')
            [CompletionResult]::new('--per-group', '--per-group', [CompletionResultType]::ParameterName, 'On a standard queue, run at most N messages of one group id (tenant) at once (default: no cap)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after this many messages were run')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Stop after this many messages were run')
            [CompletionResult]::new('--idle-exit', '--idle-exit', [CompletionResultType]::ParameterName, 'Stop once the queue stayed empty this long with no command running (e.g. 0s, 30s, 5m)')
            [CompletionResult]::new('--retry-delay', '--retry-delay', [CompletionResultType]::ParameterName, 'How long a failed message stays hidden before its retry, doubled for each receive it already had, 0s-12h')
            [CompletionResult]::new('--max-retry-delay', '--max-retry-delay', [CompletionResultType]::ParameterName, 'The longest retry delay, 0s-12h')
            [CompletionResult]::new('--release-exit-codes', '--release-exit-codes', [CompletionResultType]::ParameterName, 'Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)')
            [CompletionResult]::new('--fail-exit-codes', '--fail-exit-codes', [CompletionResultType]::ParameterName, 'Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop a command that runs longer than this (it then counts as failed)')
            [CompletionResult]::new('--visibility', '--visibility', [CompletionResultType]::ParameterName, 'Visibility timeout of received messages, 1s-12h, extended while their command runs (default: the queue''s)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Longest wait of one receive for messages, 0s-20s')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only messages whose body matches this regular expression')
            [CompletionResult]::new('--grep-v', '--grep-v', [CompletionResultType]::ParameterName, 'Leave out messages whose body matches this regular expression')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Only messages with this message attribute value (repeatable)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only messages for which this JMESPath expression is true')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Only messages sent more recently than this')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Write the message record (as one JSON line) to COMMAND''s stdin instead of the body')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;delete' {
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Delete the messages with these ids, found by scanning the queue (repeatable)')
            [CompletionResult]::new('--scan-limit', '--scan-limit', [CompletionResultType]::ParameterName, 'With --message-id, read at most this many messages looking for the ids')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Scan a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each scanned message counts one receive')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;purge' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;visibility' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'New visibility timeout from now, 0s-12h: seconds (`30`) or a duration (`5m`, `1h30m`)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;redrive' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Where to move them (default: the DLQ''s source; --help: --copy, regions)')
            [CompletionResult]::new('--to-profile', '--to-profile', [CompletionResultType]::ParameterName, 'Credentials and region of --to from this profile (a destination in another account)')
            [CompletionResult]::new('--to-region', '--to-region', [CompletionResultType]::ParameterName, 'Region of --to (default: the region in its URL or ARN, else the profile''s, else the DLQ''s)')
            [CompletionResult]::new('--to-endpoint-url', '--to-endpoint-url', [CompletionResultType]::ParameterName, 'Endpoint of --to (default: the profile''s with --to-profile, else the DLQ''s)')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only messages whose body matches this regular expression')
            [CompletionResult]::new('--grep-v', '--grep-v', [CompletionResultType]::ParameterName, 'Leave out messages whose body matches this regular expression')
            [CompletionResult]::new('--attr', '--attr', [CompletionResultType]::ParameterName, 'Only messages with this message attribute value (repeatable)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only messages for which this JMESPath expression is true')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Only messages sent more recently than this')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Only these messages (DLQ message ids)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Move at most this many messages')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Move at most this many messages')
            [CompletionResult]::new('--dedup', '--dedup', [CompletionResultType]::ParameterName, 'MessageDeduplicationId on FIFO destinations')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Delay each moved message by this long, 0s-15m (standard queues)')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Messages per second at most (with --native: 1-500)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Workers moving batches at once, 1-256 (default: adapts)')
            [CompletionResult]::new('--visibility', '--visibility', [CompletionResultType]::ParameterName, 'How long received messages stay hidden, 1s-12h')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Write the journal here (default: a new file under the state directory)')
            [CompletionResult]::new('--resume', '--resume', [CompletionResultType]::ParameterName, 'Complete an interrupted run from its journal')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Append a copy of every moved message to this JSON Lines file')
            [CompletionResult]::new('--transform', '--transform', [CompletionResultType]::ParameterName, 'Rewrite each message with a jq filter before it is sent')
            [CompletionResult]::new('--exec', '--exec', [CompletionResultType]::ParameterName, 'Rewrite each body with a shell command (the body on stdin, the new one on stdout)')
            [CompletionResult]::new('--exec-timeout', '--exec-timeout', [CompletionResultType]::ParameterName, 'How long --exec may take on one message, 1s-12h (default: 30s)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Send copies and keep the messages in the DLQ (nothing is deleted)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (needed when not on a terminal)')
            [CompletionResult]::new('--unwrap', '--unwrap', [CompletionResultType]::ParameterName, 'Send what an SNS notification or EventBridge event carries, not the envelope')
            [CompletionResult]::new('--native', '--native', [CompletionResultType]::ParameterName, 'Use SQS''s server-side move task: no selection, no journal')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel the running native move task of a dead-letter queue')
            [CompletionResult]::new('journals', 'journals', [CompletionResultType]::ParameterValue, 'List the runs whose journals are in the journal directory, newest first; remove old ones')
            break
        }
        'sqsctl;redrive;status' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;redrive;cancel' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;redrive;journals' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The journal directory (default: where redrive writes them, under the state directory)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'With --prune: the age (e.g. 7d, 12h, 0s)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Remove the journals of completed runs last written to longer ago than --older-than')
            [CompletionResult]::new('--include-interrupted', '--include-interrupted', [CompletionResultType]::ParameterName, 'With --prune: remove the journals of runs that did not complete too (they cannot be resumed afterwards)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --prune: show what would be removed, remove nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --prune --include-interrupted: do not ask (needed when not on a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --prune --include-interrupted: do not ask (needed when not on a terminal)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;groups' {
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'Read at most N messages of the queue')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N groups in the table (all of them in JSON)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Read and show again every DURATION (e.g. 5, 1m), until Ctrl-C')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Read messages even when the queue''s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;fifo' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('groups', 'groups', [CompletionResultType]::ParameterValue, 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;fifo;groups' {
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'Read at most N messages of the queue')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N groups in the table (all of them in JSON)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Read and show again every DURATION (e.g. 5, 1m), until Ctrl-C')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Read messages even when the queue''s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;fifo;help' {
            [CompletionResult]::new('groups', 'groups', [CompletionResultType]::ParameterValue, 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;fifo;help;groups' {
            break
        }
        'sqsctl;fifo;help;help' {
            break
        }
        'sqsctl;browse' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read at most this many messages')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Read at most this many messages')
            [CompletionResult]::new('--count-by', '--count-by', [CompletionResultType]::ParameterName, 'A key to count messages by in the side panel (repeatable; a JMESPath expression over the record --where sees, e.g. message_attributes.error.value)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each read counts toward it')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;top' {
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Time between refreshes, more than 0s, at most 1h: seconds (2, 0.5) or a duration (500ms, 1m)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after this many refreshes')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Stop after this many refreshes')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'What to sort by at the start')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;diagnose' {
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'Read at most N messages of the queue')
            [CompletionResult]::new('--tenant-key', '--tenant-key', [CompletionResultType]::ParameterName, 'On a standard queue without group ids: the tenant of each message, a JMESPath expression over the record as --where reads it (e.g. body.customer); says when one value dominates the backlog, so that a fair queue keyed on it would help')
            [CompletionResult]::new('--count-by', '--count-by', [CompletionResultType]::ParameterName, 'Count the messages read per value of EXPR, most frequent first (repeatable)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Run again every DURATION (e.g. 30, 5m) and say which findings changed, until Ctrl-C (a finding missing from a scan that read fewer messages is not taken as resolved)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Read messages even when the queue''s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;local' {
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'Address and port to listen on (a non-loopback address exposes the queues to the network)')
            [CompletionResult]::new('--hostname', '--hostname', [CompletionResultType]::ParameterName, 'Host name in the queue URLs the server hands out (default: the bound address). On a loopback bind, requests must name a loopback host or this one in their Host header')
            [CompletionResult]::new('--account-id', '--account-id', [CompletionResultType]::ParameterName, 'Account id used in queue URLs and ARNs')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Keep queues and messages in DIR across restarts (created if missing). A request is answered once its changes are on disk, so an acknowledged send or delete survives a crash or kill -9. Without it, everything is gone when the server stops')
            [CompletionResult]::new('--init', '--init', [CompletionResultType]::ParameterName, 'Create the queues declared in FILE (TOML, or JSON when it ends in .json) at start; queues already there with the same settings are left alone')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Bound on stored message bytes (bodies and attributes, plus 200 bytes a message); sends past it fail with OverLimit. Default: half of the memory the process may use (e.g. 512MiB, 2GB; at least 1KiB)')
            [CompletionResult]::new('--max-in-flight', '--max-in-flight', [CompletionResultType]::ParameterName, 'Messages one queue may hold in flight (received, not yet deleted or visible again), as on SQS: past it a standard queue refuses short polls with OverLimit, and long polls and FIFO queues get no messages until some leave flight. Lower it to test what a client does at the limit')
            [CompletionResult]::new('--allow-origin', '--allow-origin', [CompletionResultType]::ParameterName, 'Answer requests from web pages of ORIGIN (e.g. http://localhost:3000), with the CORS headers they need; repeatable. Requests from any other page are refused, so that a web page cannot drive the server')
            [CompletionResult]::new('--url-strategy', '--url-strategy', [CompletionResultType]::ParameterName, 'Shape of the queue URLs handed out: plain (<endpoint>/<account>/<name>, the default), or LocalStack''s standard, domain, path, off or dynamic (from each request''s Host). Every shape is accepted in requests')
            [CompletionResult]::new('--sqs-endpoint-strategy', '--sqs-endpoint-strategy', [CompletionResultType]::ParameterName, 'LocalStack''s SQS_ENDPOINT_STRATEGY, read (and checked) in LocalStack mode only, when --url-strategy is not given')
            [CompletionResult]::new('--localstack-host', '--localstack-host', [CompletionResultType]::ParameterName, 'LocalStack''s LOCALSTACK_HOST (host[:port] of queue URLs), read in LocalStack mode')
            [CompletionResult]::new('--init-dir', '--init-dir', [CompletionResultType]::ParameterName, 'Once the server listens, run the entries of DIR once, in name order: queue files (*.toml, *.json, as --init) are applied, executable files run with AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_SQS, the region and stand-in credentials pointing at the server. A failing entry is reported on stderr and the next one runs')
            [CompletionResult]::new('--latency', '--latency', [CompletionResultType]::ParameterName, 'Delay added to every request, like a network round trip (e.g. 5ms), 0s-5m')
            [CompletionResult]::new('--fault-rate', '--fault-rate', [CompletionResultType]::ParameterName, 'Share of requests (0 to 1) answered with an injected error: throttling, internal, or ambiguous (the action is applied, then a 500 returned, as a lost response looks)')
            [CompletionResult]::new('--entry-fault-rate', '--entry-fault-rate', [CompletionResultType]::ParameterName, 'Share of batch entries (0 to 1) failed individually with InternalError')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the fault injection and of --like-sqs''s decisions, for reproducible runs')
            [CompletionResult]::new('--short-poll-sample', '--short-poll-sample', [CompletionResultType]::ParameterName, 'Share of SQS''s servers a short poll (WaitTimeSeconds 0) queries: each message it could return comes with this probability, and from a queue of fewer than 1,000 visible messages it may return none. Above 0, at most 1 (exact); 0.5 with --like-sqs. Long polls are exact')
            [CompletionResult]::new('--duplicate-rate', '--duplicate-rate', [CompletionResultType]::ParameterName, 'Probability (0 to 1) that a message received from a standard queue is delivered once more, to a later receive, before its visibility timeout ends, even when the first delivery was deleted at once (either receipt handle deletes it); 0.01 with --like-sqs, 0 otherwise')
            [CompletionResult]::new('--reorder-window', '--reorder-window', [CompletionResultType]::ParameterName, 'Best-effort order on standard queues: each delivery is chosen at random among the next N messages in send order (1, send order, to 10000); 10 with --like-sqs')
            [CompletionResult]::new('--count-lag', '--count-lag', [CompletionResultType]::ParameterName, 'How old the ApproximateNumberOfMessages* attributes may be (0 to 5m; e.g. 2s, 500ms); 2s with --like-sqs, 0 (exact) otherwise')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--like-sqs', '--like-sqs', [CompletionResultType]::ParameterName, 'Behave as SQS does where it is not exact: short polls that sample, duplicate deliveries and best-effort order on standard queues, lagging Approximate* counts (the four flags below at their --like-sqs values). FIFO queues keep their guarantees; the inspection endpoints stay exact')
            [CompletionResult]::new('--recover', '--recover', [CompletionResultType]::ParameterName, 'With --data-dir: when the data directory is damaged (a start refuses it), set the damaged files aside (renamed *.damaged-<time>, never deleted), keep what can still be read, report on stderr what was dropped, then start. An undamaged directory is left as it is')
            [CompletionResult]::new('--no-inspection', '--no-inspection', [CompletionResultType]::ParameterName, 'Turn off the inspection endpoints (/_sqsctl/v1/): readers such as peek and diagnose then receive messages, raising their receive counts, as they must on SQS')
            [CompletionResult]::new('--localstack', '--localstack', [CompletionResultType]::ParameterName, 'Also answer as LocalStack does, for code and tests written against it')
            [CompletionResult]::new('--health-check', '--health-check', [CompletionResultType]::ParameterName, 'Instead of serving: check the server on --bind and exit 0 if healthy, 1 if not')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;demo' {
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'Address and port of the demo''s server (default: a free port on 127.0.0.1)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave the server and its queues running after the demo, until Ctrl-C, to go on by hand')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;generate' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Directory to write completions/ and man/ into')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;consume-watchdog' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'AWS region (default: AWS_REGION or the profile''s region)')
            [CompletionResult]::new('--endpoint-url', '--endpoint-url', [CompletionResultType]::ParameterName, 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll''s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: a table on a terminal and JSON Lines in a pipe by default')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI''s text: a list of values is one tab-separated line. Not with `-o table`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors: no progress, no summaries')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Explain what is being done on stderr (never prints credentials)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sqsctl;help' {
            [CompletionResult]::new('queues', 'queues', [CompletionResultType]::ParameterValue, 'List queues with their depth, FIFO flag and dead-letter queue')
            [CompletionResult]::new('queue', 'queue', [CompletionResultType]::ParameterValue, 'Show, create, change or delete one queue, or print its URL')
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Send messages: one from the argument, or many from stdin')
            [CompletionResult]::new('receive', 'receive', [CompletionResultType]::ParameterValue, 'Receive messages (and with --delete, consume them)')
            [CompletionResult]::new('peek', 'peek', [CompletionResultType]::ParameterValue, 'Look at messages without consuming them')
            [CompletionResult]::new('consume', 'consume', [CompletionResultType]::ParameterValue, 'Run a command per message: delete it on success, retry it on failure')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete messages by receipt handle or by message id')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete every message in a queue')
            [CompletionResult]::new('visibility', 'visibility', [CompletionResultType]::ParameterValue, 'Change how long received messages stay hidden (0 releases them)')
            [CompletionResult]::new('redrive', 'redrive', [CompletionResultType]::ParameterValue, 'Move messages from a dead-letter queue back to their source (or any queue), safely')
            [CompletionResult]::new('groups', 'groups', [CompletionResultType]::ParameterValue, 'Show each message group (FIFO) or tenant (fair queue): backlog, in flight, blocked or noisy')
            [CompletionResult]::new('fifo', 'fifo', [CompletionResultType]::ParameterValue, 'Inspect FIFO queues')
            [CompletionResult]::new('browse', 'browse', [CompletionResultType]::ParameterValue, 'Browse a queue full screen: count, filter, mark, then redrive, delete, export or edit')
            [CompletionResult]::new('top', 'top', [CompletionResultType]::ParameterValue, 'Watch queue depths and rates, refreshed (full screen on a terminal, JSON lines otherwise)')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite')
            [CompletionResult]::new('local', 'local', [CompletionResultType]::ParameterValue, 'Run a local SQS-compatible server (no AWS account needed)')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Show sqsctl''s main job end to end on a local server')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packaging)')
            [CompletionResult]::new('consume-watchdog', 'consume-watchdog', [CompletionResultType]::ParameterValue, 'Stop the commands of a `consume` run once it is gone (started by `consume` itself)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sqsctl;help;queues' {
            break
        }
        'sqsctl;help;queue' {
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a queue (optionally FIFO, optionally with a dead-letter queue)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a queue and every message in it')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy')
            [CompletionResult]::new('url', 'url', [CompletionResultType]::ParameterValue, 'Print the URL of a queue')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Add tags to a queue, or change their values')
            [CompletionResult]::new('untag', 'untag', [CompletionResultType]::ParameterValue, 'Remove tags from a queue')
            [CompletionResult]::new('permission', 'permission', [CompletionResultType]::ParameterValue, 'Let other AWS accounts use a queue: list, add or remove permissions')
            break
        }
        'sqsctl;help;queue;info' {
            break
        }
        'sqsctl;help;queue;create' {
            break
        }
        'sqsctl;help;queue;delete' {
            break
        }
        'sqsctl;help;queue;set' {
            break
        }
        'sqsctl;help;queue;url' {
            break
        }
        'sqsctl;help;queue;tag' {
            break
        }
        'sqsctl;help;queue;untag' {
            break
        }
        'sqsctl;help;queue;permission' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the statements of a queue''s policy: the permissions added, and any others')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow other AWS accounts actions on a queue (AddPermission)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a permission by its label (RemovePermission)')
            break
        }
        'sqsctl;help;queue;permission;list' {
            break
        }
        'sqsctl;help;queue;permission;add' {
            break
        }
        'sqsctl;help;queue;permission;remove' {
            break
        }
        'sqsctl;help;send' {
            break
        }
        'sqsctl;help;receive' {
            break
        }
        'sqsctl;help;peek' {
            break
        }
        'sqsctl;help;consume' {
            break
        }
        'sqsctl;help;delete' {
            break
        }
        'sqsctl;help;purge' {
            break
        }
        'sqsctl;help;visibility' {
            break
        }
        'sqsctl;help;redrive' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel the running native move task of a dead-letter queue')
            [CompletionResult]::new('journals', 'journals', [CompletionResultType]::ParameterValue, 'List the runs whose journals are in the journal directory, newest first; remove old ones')
            break
        }
        'sqsctl;help;redrive;status' {
            break
        }
        'sqsctl;help;redrive;cancel' {
            break
        }
        'sqsctl;help;redrive;journals' {
            break
        }
        'sqsctl;help;groups' {
            break
        }
        'sqsctl;help;fifo' {
            [CompletionResult]::new('groups', 'groups', [CompletionResultType]::ParameterValue, 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)')
            break
        }
        'sqsctl;help;fifo;groups' {
            break
        }
        'sqsctl;help;browse' {
            break
        }
        'sqsctl;help;top' {
            break
        }
        'sqsctl;help;diagnose' {
            break
        }
        'sqsctl;help;local' {
            break
        }
        'sqsctl;help;demo' {
            break
        }
        'sqsctl;help;generate' {
            break
        }
        'sqsctl;help;consume-watchdog' {
            break
        }
        'sqsctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
