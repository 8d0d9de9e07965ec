# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sqsctl_global_optspecs
    string join \n V/version profile= region= endpoint-url= connect-timeout= read-timeout= o/output= query= color= q/quiet v/verbose h/help
end

function __fish_sqsctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sqsctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sqsctl_using_subcommand
    set -l cmd (__fish_sqsctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sqsctl -n "__fish_sqsctl_needs_command" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_needs_command" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_needs_command" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "queues" -d 'List queues with their depth, FIFO flag and dead-letter queue'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "queue" -d 'Show, create, change or delete one queue, or print its URL'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "send" -d 'Send messages: one from the argument, or many from stdin'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "receive" -d 'Receive messages (and with --delete, consume them)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "peek" -d 'Look at messages without consuming them'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "consume" -d 'Run a command per message: delete it on success, retry it on failure'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "delete" -d 'Delete messages by receipt handle or by message id'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "purge" -d 'Delete every message in a queue'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "visibility" -d 'Change how long received messages stay hidden (0 releases them)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "redrive" -d 'Move messages from a dead-letter queue back to their source (or any queue), safely'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "groups" -d 'Show each message group (FIFO) or tenant (fair queue): backlog, in flight, blocked or noisy'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "fifo" -d 'Inspect FIFO queues'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "browse" -d 'Browse a queue full screen: count, filter, mark, then redrive, delete, export or edit'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "top" -d 'Watch queue depths and rates, refreshed (full screen on a terminal, JSON lines otherwise)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "diagnose" -d 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "local" -d 'Run a local SQS-compatible server (no AWS account needed)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "demo" -d 'Show sqsctl\'s main job end to end on a local server'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "generate" -d 'Write shell completions and man pages (for packaging)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "consume-watchdog" -d 'Stop the commands of a `consume` run once it is gone (started by `consume` itself)'
complete -c sqsctl -n "__fish_sqsctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queues" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "info" -d 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "create" -d 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "delete" -d 'Delete a queue and every message in it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "set" -d 'Change a queue\'s attributes: durations, dead-letter queue, redrive allow policy'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "url" -d 'Print the URL of a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "tag" -d 'Add tags to a queue, or change their values'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "untag" -d 'Remove tags from a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "permission" -d 'Let other AWS accounts use a queue: list, add or remove permissions'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and not __fish_seen_subcommand_from info create delete set url tag untag permission help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l dlq -d 'Dead-letter queue for messages received more than --max-receive times (created if missing)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l max-receive -d 'Receives before a message moves to the dead-letter queue, 1-1000' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l visibility -d 'How long a received message stays hidden (VisibilityTimeout, 0s-12h)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l retention -d 'How long SQS keeps a message (MessageRetentionPeriod, 1m-14d)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l wait -d 'Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, 0s-20s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l delay -d 'Delay before a new message is visible (DelaySeconds, 0s-15m)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l attr -d 'Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l tag -d 'Tag KEY=VALUE on the new queue, e.g. team=payments (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -l fifo -d 'Create a FIFO queue (implied by a name ending in .fifo)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -l dry-run -d 'Show what would change, change nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l attr -d 'Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l visibility -d 'How long a received message stays hidden (VisibilityTimeout, 0s-12h)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l retention -d 'How long SQS keeps a message (MessageRetentionPeriod, 1m-14d)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l wait -d 'Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, 0s-20s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l delay -d 'Delay before a new message is visible (DelaySeconds, 0s-15m)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l dlq -d 'Dead-letter queue (name, URL or ARN) for messages received more than --max-receive times' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l max-receive -d 'Receives before a message moves to the dead-letter queue, 1-1000' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l allow-sources -d 'As a dead-letter queue, accept messages only from these source queues (1-10)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l create-dlq -d 'Create the --dlq queue when it does not exist (of the same type, 14 days retention)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l no-dlq -d 'Remove the redrive policy (messages are no longer moved to a dead-letter queue)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l allow-all -d 'As a dead-letter queue, accept messages from any source queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l deny-all -d 'Accept no source queue (this queue cannot be a dead-letter queue)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -l dry-run -d 'Show what would change, change nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s y -l yes -d 'Do not ask for confirmation (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l account -d 'Account that owns the queue (another account\'s queue shared with yours)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from url" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from tag" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from untag" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -f -a "list" -d 'List the statements of a queue\'s policy: the permissions added, and any others'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -f -a "add" -d 'Allow other AWS accounts actions on a queue (AddPermission)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -f -a "remove" -d 'Remove a permission by its label (RemovePermission)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from permission" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a queue and every message in it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "set" -d 'Change a queue\'s attributes: durations, dead-letter queue, redrive allow policy'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "url" -d 'Print the URL of a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "tag" -d 'Add tags to a queue, or change their values'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "untag" -d 'Remove tags from a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "permission" -d 'Let other AWS accounts use a queue: list, add or remove permissions'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand queue; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l group-id -d 'FIFO message group id (for records that carry none)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l dedup-id -d 'FIFO deduplication id; `auto` derives a stable one from each record\'s content' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l attr -d 'Message attribute NAME=VALUE or NAME:TYPE=VALUE (String, Number, Binary as base64); repeatable' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l delay -d 'Delay before the message can be received, 0s-15m (standard queues)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l trace-header -d 'X-Ray trace header (the AWSTraceHeader system attribute), e.g. Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l concurrency -d 'Batches in flight at once (FIFO queues always send one at a time, to keep order)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l lines -d 'Read stdin and send each line as one message body'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l jsonl -d 'Read stdin as JSON Lines message records (what `receive` writes)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -l skip-invalid -d 'With --lines/--jsonl: skip lines that are not valid messages (and report how many) instead of stopping (exit code 3 when every line was skipped)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand send" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s n -l max -d 'Stop after N messages (default 10; no limit with --until-empty)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l wait -d 'Long-poll wait per request, 0s-20s' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l visibility -d 'Visibility timeout of the received messages, 0s-12h (default: the queue\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l attributes -d 'System attributes to show: All (default) or names' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l message-attributes -d 'Message attributes to show: All (default), names, or prefixes such as `trace.*`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l count-by -d 'Count messages per value of EXPR instead of writing them' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l concurrency -d 'Receive requests in flight at once' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l format -d 'Write each message as this template instead of a record' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l grep -d 'Only messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l grep-v -d 'Leave out messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l attr -d 'Only messages with this message attribute value (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l where -d 'Only messages for which this JMESPath expression is true' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l older-than -d 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l newer-than -d 'Only messages sent more recently than this' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l until-empty -d 'Keep receiving until a long poll comes back empty'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s f -l follow -d 'Keep long-polling and writing messages as they arrive, until Ctrl-C (or --max)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l delete -d 'Delete each message once written (asks first on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s y -l yes -d 'Do not ask for confirmation of --delete'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l force -d 'Without --delete, read what the read guard refuses'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -l unwrap -d 'Write the inner message of SNS and EventBridge envelopes'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand receive" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s n -l max -d 'Show at most this many messages (default 10; with --count-by, count every message)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l scan-limit -d 'With filters, read at most this many messages looking for matches' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l attributes -d 'System attributes to show: All (default) or names' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l message-attributes -d 'Message attributes to show: All (default), names, or prefixes such as `trace.*`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l count-by -d 'Count messages per value of EXPR instead of writing them' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l format -d 'Write each message as this template instead of a record' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l grep -d 'Only messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l grep-v -d 'Leave out messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l attr -d 'Only messages with this message attribute value (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l where -d 'Only messages for which this JMESPath expression is true' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l older-than -d 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l newer-than -d 'Only messages sent more recently than this' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l force -d 'Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each read counts toward it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l unwrap -d 'Write the inner message of SNS and EventBridge envelopes'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -l follow -d 'Refused: peek cannot follow a queue (see `receive --follow`)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand peek" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s c -l concurrency -d 'Commands running at once' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l per-group -d 'On a standard queue, run at most N messages of one group id (tenant) at once (default: no cap)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s n -l max -d 'Stop after this many messages were run' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l idle-exit -d 'Stop once the queue stayed empty this long with no command running (e.g. 0s, 30s, 5m)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l retry-delay -d 'How long a failed message stays hidden before its retry, doubled for each receive it already had, 0s-12h' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l max-retry-delay -d 'The longest retry delay, 0s-12h' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l release-exit-codes -l fail-exit-codes -d 'Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l timeout -d 'Stop a command that runs longer than this (it then counts as failed)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l visibility -d 'Visibility timeout of received messages, 1s-12h, extended while their command runs (default: the queue\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l wait -d 'Longest wait of one receive for messages, 0s-20s' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l grep -d 'Only messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l grep-v -d 'Leave out messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l attr -d 'Only messages with this message attribute value (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l where -d 'Only messages for which this JMESPath expression is true' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l older-than -d 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l newer-than -d 'Only messages sent more recently than this' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -l jsonl -d 'Write the message record (as one JSON line) to COMMAND\'s stdin instead of the body'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l message-id -d 'Delete the messages with these ids, found by scanning the queue (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l scan-limit -d 'With --message-id, read at most this many messages looking for the ids' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l dry-run -d 'Show what would change, change nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s y -l yes -d 'Do not ask for confirmation (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -l force -d 'Scan a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each scanned message counts one receive'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -l dry-run -d 'Show what would change, change nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s y -l yes -d 'Do not ask for confirmation (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand purge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l timeout -d 'New visibility timeout from now, 0s-12h: seconds (`30`) or a duration (`5m`, `1h30m`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand visibility" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l to -d 'Where to move them (default: the DLQ\'s source; --help: --copy, regions)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l to-profile -d 'Credentials and region of --to from this profile (a destination in another account)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l to-region -d 'Region of --to (default: the region in its URL or ARN, else the profile\'s, else the DLQ\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l to-endpoint-url -d 'Endpoint of --to (default: the profile\'s with --to-profile, else the DLQ\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l grep -d 'Only messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l grep-v -d 'Leave out messages whose body matches this regular expression' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l attr -d 'Only messages with this message attribute value (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l where -d 'Only messages for which this JMESPath expression is true' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l older-than -d 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l newer-than -d 'Only messages sent more recently than this' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l message-id -d 'Only these messages (DLQ message ids)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s n -l max -d 'Move at most this many messages' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l dedup -d 'MessageDeduplicationId on FIFO destinations' -r -f -a "keep\t'The id the message had (SQS drops a re-send of an id it saw in the last 5 minutes)'
message-id\t'The DLQ message id: unique per message, and stable across retries and `--resume`'
new\t'A fresh id per message (stable across retries within one run, not across `--resume`)'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l delay -d 'Delay each moved message by this long, 0s-15m (standard queues)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l rate -d 'Messages per second at most (with --native: 1-500)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l concurrency -d 'Workers moving batches at once, 1-256 (default: adapts)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l visibility -d 'How long received messages stay hidden, 1s-12h' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l journal -d 'Write the journal here (default: a new file under the state directory)' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l resume -d 'Complete an interrupted run from its journal' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l archive -d 'Append a copy of every moved message to this JSON Lines file' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l transform -d 'Rewrite each message with a jq filter before it is sent' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l exec -d 'Rewrite each body with a shell command (the body on stdin, the new one on stdout)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l exec-timeout -d 'How long --exec may take on one message, 1s-12h (default: 30s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l copy -d 'Send copies and keep the messages in the DLQ (nothing is deleted)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l dry-run -d 'Show what would change, change nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s y -l yes -d 'Do not ask for confirmation (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l unwrap -d 'Send what an SNS notification or EventBridge event carries, not the envelope'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -l native -d 'Use SQS\'s server-side move task: no selection, no journal'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -a "status" -d 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -a "cancel" -d 'Cancel the running native move task of a dead-letter queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and not __fish_seen_subcommand_from status cancel journals" -a "journals" -d 'List the runs whose journals are in the journal directory, newest first; remove old ones'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from cancel" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l dir -d 'The journal directory (default: where redrive writes them, under the state directory)' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l older-than -d 'With --prune: the age (e.g. 7d, 12h, 0s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l prune -d 'Remove the journals of completed runs last written to longer ago than --older-than'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l include-interrupted -d 'With --prune: remove the journals of runs that did not complete too (they cannot be resumed afterwards)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -l dry-run -d 'With --prune: show what would be removed, remove nothing'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s y -l yes -d 'With --prune --include-interrupted: do not ask (needed when not on a terminal)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand redrive; and __fish_seen_subcommand_from journals" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l input -d 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l sample -d 'Read at most N messages of the queue' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l limit -d 'Show at most N groups in the table (all of them in JSON)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l watch -d 'Read and show again every DURATION (e.g. 5, 1m), until Ctrl-C' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -l force -d 'Read messages even when the queue\'s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand groups" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -f -a "groups" -d 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and not __fish_seen_subcommand_from groups help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l input -d 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l sample -d 'Read at most N messages of the queue' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l limit -d 'Show at most N groups in the table (all of them in JSON)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l watch -d 'Read and show again every DURATION (e.g. 5, 1m), until Ctrl-C' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -l force -d 'Read messages even when the queue\'s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from groups" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from help" -f -a "groups" -d 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand fifo; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s n -l max -d 'Read at most this many messages' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l count-by -d 'A key to count messages by in the side panel (repeatable; a JMESPath expression over the record --where sees, e.g. message_attributes.error.value)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -l force -d 'Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read left at their maxReceiveCount) anyway; each read counts toward it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand browse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l interval -d 'Time between refreshes, more than 0s, at most 1h: seconds (2, 0.5) or a duration (500ms, 1m)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s n -l count -d 'Stop after this many refreshes' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l sort -d 'What to sort by at the start' -r -f -a "visible\t'Most visible messages first'
in-flight\t'Most messages in flight first'
delayed\t'Most delayed messages first'
in\t'Fastest growing first (in/s)'
out\t'Fastest shrinking first (out/s)'
name\t'By name, A to Z'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand top" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l input -d 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l sample -d 'Read at most N messages of the queue' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l tenant-key -d 'On a standard queue without group ids: the tenant of each message, a JMESPath expression over the record as --where reads it (e.g. body.customer); says when one value dominates the backlog, so that a fair queue keyed on it would help' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l count-by -d 'Count the messages read per value of EXPR, most frequent first (repeatable)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l watch -d 'Run again every DURATION (e.g. 30, 5m) and say which findings changed, until Ctrl-C (a finding missing from a scan that read fewer messages is not taken as resolved)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -l force -d 'Read messages even when the queue\'s maxReceiveCount is 1 or 2, or the last read left messages at their maxReceiveCount (each read counts as a receive)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand diagnose" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l bind -d 'Address and port to listen on (a non-loopback address exposes the queues to the network)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l hostname -d 'Host name in the queue URLs the server hands out (default: the bound address). On a loopback bind, requests must name a loopback host or this one in their Host header' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l account-id -d 'Account id used in queue URLs and ARNs' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l data-dir -d 'Keep queues and messages in DIR across restarts (created if missing). A request is answered once its changes are on disk, so an acknowledged send or delete survives a crash or kill -9. Without it, everything is gone when the server stops' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l init -d 'Create the queues declared in FILE (TOML, or JSON when it ends in .json) at start; queues already there with the same settings are left alone' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l max-bytes -d 'Bound on stored message bytes (bodies and attributes, plus 200 bytes a message); sends past it fail with OverLimit. Default: half of the memory the process may use (e.g. 512MiB, 2GB; at least 1KiB)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l max-in-flight -d 'Messages one queue may hold in flight (received, not yet deleted or visible again), as on SQS: past it a standard queue refuses short polls with OverLimit, and long polls and FIFO queues get no messages until some leave flight. Lower it to test what a client does at the limit' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l allow-origin -d 'Answer requests from web pages of ORIGIN (e.g. http://localhost:3000), with the CORS headers they need; repeatable. Requests from any other page are refused, so that a web page cannot drive the server' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l url-strategy -d 'Shape of the queue URLs handed out: plain (<endpoint>/<account>/<name>, the default), or LocalStack\'s standard, domain, path, off or dynamic (from each request\'s Host). Every shape is accepted in requests' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l sqs-endpoint-strategy -d 'LocalStack\'s SQS_ENDPOINT_STRATEGY, read (and checked) in LocalStack mode only, when --url-strategy is not given' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l localstack-host -d 'LocalStack\'s LOCALSTACK_HOST (host[:port] of queue URLs), read in LocalStack mode' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l init-dir -d 'Once the server listens, run the entries of DIR once, in name order: queue files (*.toml, *.json, as --init) are applied, executable files run with AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_SQS, the region and stand-in credentials pointing at the server. A failing entry is reported on stderr and the next one runs' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l latency -d 'Delay added to every request, like a network round trip (e.g. 5ms), 0s-5m' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l fault-rate -d 'Share of requests (0 to 1) answered with an injected error: throttling, internal, or ambiguous (the action is applied, then a 500 returned, as a lost response looks)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l entry-fault-rate -d 'Share of batch entries (0 to 1) failed individually with InternalError' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l seed -d 'Seed of the fault injection and of --like-sqs\'s decisions, for reproducible runs' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l short-poll-sample -d 'Share of SQS\'s servers a short poll (WaitTimeSeconds 0) queries: each message it could return comes with this probability, and from a queue of fewer than 1,000 visible messages it may return none. Above 0, at most 1 (exact); 0.5 with --like-sqs. Long polls are exact' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l duplicate-rate -d 'Probability (0 to 1) that a message received from a standard queue is delivered once more, to a later receive, before its visibility timeout ends, even when the first delivery was deleted at once (either receipt handle deletes it); 0.01 with --like-sqs, 0 otherwise' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l reorder-window -d 'Best-effort order on standard queues: each delivery is chosen at random among the next N messages in send order (1, send order, to 10000); 10 with --like-sqs' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l count-lag -d 'How old the ApproximateNumberOfMessages* attributes may be (0 to 5m; e.g. 2s, 500ms); 2s with --like-sqs, 0 (exact) otherwise' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l like-sqs -d 'Behave as SQS does where it is not exact: short polls that sample, duplicate deliveries and best-effort order on standard queues, lagging Approximate* counts (the four flags below at their --like-sqs values). FIFO queues keep their guarantees; the inspection endpoints stay exact'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l recover -d 'With --data-dir: when the data directory is damaged (a start refuses it), set the damaged files aside (renamed *.damaged-<time>, never deleted), keep what can still be read, report on stderr what was dropped, then start. An undamaged directory is left as it is'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l no-inspection -d 'Turn off the inspection endpoints (/_sqsctl/v1/): readers such as peek and diagnose then receive messages, raising their receive counts, as they must on SQS'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l localstack -d 'Also answer as LocalStack does, for code and tests written against it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -l health-check -d 'Instead of serving: check the server on --bind and exit 0 if healthy, 1 if not'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand local" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l bind -d 'Address and port of the demo\'s server (default: a free port on 127.0.0.1)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -l keep -d 'Leave the server and its queues running after the demo, until Ctrl-C, to go on by hand'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand demo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l out-dir -d 'Directory to write completions/ and man/ into' -r -F
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand generate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l profile -d 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l region -d 'AWS region (default: AWS_REGION or the profile\'s region)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l endpoint-url -d 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS\'s)' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l connect-timeout -d 'How long to wait for a connection to the endpoint before giving up, more than 0s, at most 1h; SQSCTL_CONNECT_TIMEOUT sets it too [default: 10s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l read-timeout -d 'How long to wait for an answer to a request before giving up, more than 0s, at most 1h; a long poll\'s wait comes on top, and a request that timed out is tried once more, so a hung endpoint costs at most twice this; SQSCTL_READ_TIMEOUT sets it too [default: 30s]' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -s o -l output -d 'Output format: a table on a terminal and JSON Lines in a pipe by default' -r -f -a "auto\t'A table on a terminal, JSON Lines when piped'
table\t'A table, also when piped'
json\t'One JSON document'
jsonl\t'One JSON record per line, each `{"type": ..., "data": ...}`'
text\t'Plain text: message bodies one per line, or tab-separated columns'"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l query -d 'JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result written as JSON on a terminal and in a pipe alike (per message for receive and peek; per record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result as the AWS CLI\'s text: a list of values is one tab-separated line. Not with `-o table`' -r
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -l color -d 'When to use colour on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -s V -l version -d 'Print version'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -s q -l quiet -d 'Print only data and errors: no progress, no summaries'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -s v -l verbose -d 'Explain what is being done on stderr (never prints credentials)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand consume-watchdog" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "queues" -d 'List queues with their depth, FIFO flag and dead-letter queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "queue" -d 'Show, create, change or delete one queue, or print its URL'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "send" -d 'Send messages: one from the argument, or many from stdin'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "receive" -d 'Receive messages (and with --delete, consume them)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "peek" -d 'Look at messages without consuming them'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "consume" -d 'Run a command per message: delete it on success, retry it on failure'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "delete" -d 'Delete messages by receipt handle or by message id'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "purge" -d 'Delete every message in a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "visibility" -d 'Change how long received messages stay hidden (0 releases them)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "redrive" -d 'Move messages from a dead-letter queue back to their source (or any queue), safely'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "groups" -d 'Show each message group (FIFO) or tenant (fair queue): backlog, in flight, blocked or noisy'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "fifo" -d 'Inspect FIFO queues'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "browse" -d 'Browse a queue full screen: count, filter, mark, then redrive, delete, export or edit'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "top" -d 'Watch queue depths and rates, refreshed (full screen on a terminal, JSON lines otherwise)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "diagnose" -d 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "local" -d 'Run a local SQS-compatible server (no AWS account needed)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "demo" -d 'Show sqsctl\'s main job end to end on a local server'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "generate" -d 'Write shell completions and man pages (for packaging)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "consume-watchdog" -d 'Stop the commands of a `consume` run once it is gone (started by `consume` itself)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and not __fish_seen_subcommand_from queues queue send receive peek consume delete purge visibility redrive groups fifo browse top diagnose local demo generate consume-watchdog help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "info" -d 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "create" -d 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "delete" -d 'Delete a queue and every message in it'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "set" -d 'Change a queue\'s attributes: durations, dead-letter queue, redrive allow policy'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "url" -d 'Print the URL of a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "tag" -d 'Add tags to a queue, or change their values'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "untag" -d 'Remove tags from a queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from queue" -f -a "permission" -d 'Let other AWS accounts use a queue: list, add or remove permissions'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from redrive" -f -a "status" -d 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from redrive" -f -a "cancel" -d 'Cancel the running native move task of a dead-letter queue'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from redrive" -f -a "journals" -d 'List the runs whose journals are in the journal directory, newest first; remove old ones'
complete -c sqsctl -n "__fish_sqsctl_using_subcommand help; and __fish_seen_subcommand_from fifo" -f -a "groups" -d 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism (the same as `sqsctl groups`)'
