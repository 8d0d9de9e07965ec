
use builtin;
use str;

set edit:completion:arg-completer[sqsctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'sqsctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'sqsctl'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand queues 'List queues with their depth, FIFO flag and dead-letter queue'
            cand queue 'Show, create, change or delete one queue, or print its URL'
            cand send 'Send messages: one from the argument, or many from stdin'
            cand receive 'Receive messages (and with --delete, consume them)'
            cand peek 'Look at messages without consuming them'
            cand consume 'Run a command per message: delete it on success, retry it on failure'
            cand delete 'Delete messages by receipt handle or by message id'
            cand purge 'Delete every message in a queue'
            cand visibility 'Change how long received messages stay hidden (0 releases them)'
            cand redrive 'Move messages from a dead-letter queue back to their source (or any queue), safely'
            cand fifo 'Inspect FIFO queues'
            cand diagnose 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite'
            cand local 'Run a local SQS-compatible server (no AWS account needed)'
            cand demo 'Show sqsctl''s main job end to end on a local server'
            cand generate 'Write shell completions and man pages (for packaging)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;queues'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand info 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
            cand create 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
            cand delete 'Delete a queue and every message in it'
            cand set 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy'
            cand url 'Print the URL of a queue'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;queue;info'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue;create'= {
            cand --dlq 'Dead-letter queue for messages received more than --max-receive times (created if missing)'
            cand --max-receive 'Receives before a message moves to the dead-letter queue, 1-1000'
            cand --attr 'Queue attribute NAME=VALUE, e.g. VisibilityTimeout=60 (repeatable)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --fifo 'Create a FIFO queue (implied by a name ending in .fifo)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue;delete'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Show what would be deleted, delete nothing'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue;set'= {
            cand --attr 'Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)'
            cand --visibility 'How long a received message stays hidden (VisibilityTimeout, 0s-12h)'
            cand --retention 'How long SQS keeps a message (MessageRetentionPeriod, 1m-14d)'
            cand --wait 'Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, 0s-20s)'
            cand --delay 'Delay before a new message is visible (DelaySeconds, 0s-15m)'
            cand --dlq 'Dead-letter queue (name, URL or ARN) for messages received more than --max-receive times'
            cand --max-receive 'Receives before a message moves to the dead-letter queue, 1-1000'
            cand --allow-sources 'As a dead-letter queue, accept messages only from these source queues (1-10)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --create-dlq 'Create the --dlq queue when it does not exist (of the same type, 14 days retention)'
            cand --no-dlq 'Remove the redrive policy (messages are no longer moved to a dead-letter queue)'
            cand --allow-all 'As a dead-letter queue, accept messages from any source queue'
            cand --deny-all 'Accept no source queue (this queue cannot be a dead-letter queue)'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Show the change, make none'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue;url'= {
            cand --account 'Account that owns the queue (another account''s queue shared with yours)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;queue;help'= {
            cand info 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
            cand create 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
            cand delete 'Delete a queue and every message in it'
            cand set 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy'
            cand url 'Print the URL of a queue'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;queue;help;info'= {
        }
        &'sqsctl;queue;help;create'= {
        }
        &'sqsctl;queue;help;delete'= {
        }
        &'sqsctl;queue;help;set'= {
        }
        &'sqsctl;queue;help;url'= {
        }
        &'sqsctl;queue;help;help'= {
        }
        &'sqsctl;send'= {
            cand --group-id 'FIFO message group id (for records that carry none)'
            cand --dedup-id 'FIFO deduplication id; `auto` derives a stable one from each record''s content'
            cand --attr 'Message attribute NAME=VALUE or NAME:TYPE=VALUE (String, Number, Binary as base64); repeatable'
            cand --delay 'Delay before the message can be received, 0-900 seconds (standard queues)'
            cand --concurrency 'Batches in flight at once (FIFO queues always send one at a time, to keep order)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --lines 'Read stdin and send each line as one message body'
            cand --jsonl 'Read stdin as JSON Lines message records (what `receive` writes)'
            cand --skip-invalid 'With --lines/--jsonl: skip lines that are not valid messages (and report how many) instead of stopping (exit code 3 when every line was skipped)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;receive'= {
            cand -n 'Stop after this many messages (default 10, or no limit with --until-empty)'
            cand --max 'Stop after this many messages (default 10, or no limit with --until-empty)'
            cand --wait 'Long-poll wait per request, 0-20 seconds'
            cand --visibility 'Visibility timeout of the received messages, 0-43200 seconds (default: the queue''s)'
            cand --concurrency 'Receive requests in flight at once'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --until-empty 'Keep receiving until the queue has no visible message left'
            cand --delete 'Delete each message once its record was written (asks first on a terminal)'
            cand -y 'Do not ask for confirmation of --delete'
            cand --yes 'Do not ask for confirmation of --delete'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;peek'= {
            cand -n 'Show at most this many messages'
            cand --max 'Show at most this many messages'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --force 'Read a queue whose maxReceiveCount is 1 or 2 anyway (each read counts toward it)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;consume'= {
            cand -c 'Commands running at once'
            cand --concurrency 'Commands running at once'
            cand -n 'Stop after this many messages were run'
            cand --max 'Stop after this many messages were run'
            cand --idle-exit 'Stop once the queue stayed empty this long with no command running (e.g. 0s, 30s, 5m)'
            cand --retry-delay 'How long a failed message stays hidden before its retry, doubled for each receive it already had'
            cand --max-retry-delay 'The longest retry delay'
            cand --release-exit-codes 'Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)'
            cand --fail-exit-codes 'Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)'
            cand --timeout 'Stop a command that runs longer than this (it then counts as failed)'
            cand --visibility 'Visibility timeout of received messages, extended while their command runs (default: the queue''s)'
            cand --wait 'Longest wait of one receive for messages, 0-20 seconds'
            cand --grep 'Only messages whose body matches this regular expression; the others are released (see below)'
            cand --attr 'Only messages with this message attribute value (repeatable: all must match)'
            cand --where 'Only messages for which this JMESPath expression is true; it sees the message record, with a JSON body parsed'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --jsonl 'Write the message record (as one JSON line) to COMMAND''s stdin instead of the body'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;delete'= {
            cand --message-id 'Delete the messages with these ids, found by scanning the queue (repeatable)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --dry-run 'Show what would be deleted, delete nothing'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --force 'Scan a queue whose maxReceiveCount is 1 or 2 anyway (each scanned message counts one receive)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;purge'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Show how many messages would be removed, remove nothing'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;visibility'= {
            cand --timeout 'New visibility timeout from now: seconds (`30`) or a duration (`5m`, `1h30m`), 0 to 12h'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;redrive'= {
            cand --to 'Where to move them (default: the DLQ''s source queue, found with ListDeadLetterSourceQueues)'
            cand --grep 'Only messages whose body matches this regular expression'
            cand --attr 'Only messages with this message attribute value (repeatable: all must match)'
            cand --where 'Only messages for which this JMESPath expression is true; it sees the message record, with a JSON body parsed (e.g. "body.amount > `100`"). Messages it fails on stay, and are counted and reported'
            cand --older-than 'Only messages sent longer ago than this (e.g. 30m, 2h, 1day)'
            cand --newer-than 'Only messages sent more recently than this'
            cand --message-id 'Only these messages (DLQ message ids)'
            cand --limit 'Move at most this many messages'
            cand --dedup 'MessageDeduplicationId on FIFO destinations: the DLQ message id, the original id, or a new one'
            cand --delay 'Delay each moved message by this many seconds (standard queues, 0-900)'
            cand --rate 'Messages per second at most (native mode: 1-500)'
            cand --concurrency 'Batches in flight at once, each held from its receive until its delete'
            cand --visibility-timeout 'How long received messages stay hidden while they are moved, in seconds (extended when slow)'
            cand --journal 'Write the journal here (default: a new file under the state directory, printed at the start)'
            cand --resume 'Complete an interrupted run from its journal, with its settings (--archive included), without re-sending what it shows as sent; a completed run is not run again'
            cand --archive 'Append a copy of every moved message to this JSON Lines file (written and synced before the message leaves the DLQ)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --dry-run 'Show what would move and where, with counts per destination and group; change nothing'
            cand -y 'Do not ask for confirmation (needed when not on a terminal)'
            cand --yes 'Do not ask for confirmation (needed when not on a terminal)'
            cand --native 'Use SQS''s server-side move task (StartMessageMoveTask): no selection, no journal'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)'
            cand cancel 'Cancel the running native move task of a dead-letter queue'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;redrive;status'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;redrive;cancel'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;redrive;help'= {
            cand status 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)'
            cand cancel 'Cancel the running native move task of a dead-letter queue'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;redrive;help;status'= {
        }
        &'sqsctl;redrive;help;cancel'= {
        }
        &'sqsctl;redrive;help;help'= {
        }
        &'sqsctl;fifo'= {
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand groups 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;fifo;groups'= {
            cand --input 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue'
            cand --sample 'Read at most N messages of the queue'
            cand --limit 'Show at most N groups in the table (all of them in JSON)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --force 'Read messages even when the queue''s maxReceiveCount is 1 or 2 (each read counts as a receive)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;fifo;help'= {
            cand groups 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;fifo;help;groups'= {
        }
        &'sqsctl;fifo;help;help'= {
        }
        &'sqsctl;diagnose'= {
            cand --input 'Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin) instead of reading the queue'
            cand --sample 'Read at most N messages of the queue'
            cand --watch 'Run again every N seconds and say which findings changed, until Ctrl-C (a finding missing from a scan that read fewer messages is not taken as resolved)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --force 'Read messages even when the queue''s maxReceiveCount is 1 or 2 (each read counts as a receive)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;local'= {
            cand --bind 'Address and port to listen on (a non-loopback address exposes the queues to the network)'
            cand --account-id 'Account id used in queue URLs and ARNs'
            cand --latency 'Delay added to every request, like a network round trip (e.g. 5ms)'
            cand --fault-rate 'Share of requests (0 to 1) answered with an injected error: throttling, internal, or ambiguous (the action is applied, then a 500 returned, as a lost response looks)'
            cand --entry-fault-rate 'Share of batch entries (0 to 1) failed individually with InternalError'
            cand --seed 'Seed of the fault injection, for reproducible runs'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;demo'= {
            cand --bind 'Address and port of the demo''s server (default: a free port on 127.0.0.1)'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand --keep 'Leave the server and its queues running after the demo, until Ctrl-C, to go on by hand'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;generate'= {
            cand --out-dir 'Directory to write completions/ and man/ into'
            cand --profile 'AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)'
            cand --region 'AWS region (default: AWS_REGION or the profile''s region)'
            cand --endpoint-url 'SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS''s)'
            cand --connect-timeout 'Seconds to wait for a connection to the endpoint before giving up [default: 10]'
            cand --read-timeout 'Seconds to wait for an answer to a request before giving up; a long poll''s wait comes on top [default: 30]'
            cand -o 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --output 'Output format: a table on a terminal and JSON Lines in a pipe by default'
            cand --query 'JMESPath expression applied to the JSON output, as in the AWS CLI (per record with `-o jsonl` and per message for receive and peek); with `-o text`, its result as text, scalars one per line'
            cand --color 'When to use colour on stderr (NO_COLOR is respected)'
            cand -q 'Print only data and errors: no progress, no summaries'
            cand --quiet 'Print only data and errors: no progress, no summaries'
            cand -v 'Explain what is being done on stderr (never prints credentials)'
            cand --verbose 'Explain what is being done on stderr (never prints credentials)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sqsctl;help'= {
            cand queues 'List queues with their depth, FIFO flag and dead-letter queue'
            cand queue 'Show, create, change or delete one queue, or print its URL'
            cand send 'Send messages: one from the argument, or many from stdin'
            cand receive 'Receive messages (and with --delete, consume them)'
            cand peek 'Look at messages without consuming them'
            cand consume 'Run a command per message: delete it on success, retry it on failure'
            cand delete 'Delete messages by receipt handle or by message id'
            cand purge 'Delete every message in a queue'
            cand visibility 'Change how long received messages stay hidden (0 releases them)'
            cand redrive 'Move messages from a dead-letter queue back to their source (or any queue), safely'
            cand fifo 'Inspect FIFO queues'
            cand diagnose 'Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite'
            cand local 'Run a local SQS-compatible server (no AWS account needed)'
            cand demo 'Show sqsctl''s main job end to end on a local server'
            cand generate 'Write shell completions and man pages (for packaging)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sqsctl;help;queues'= {
        }
        &'sqsctl;help;queue'= {
            cand info 'Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources'
            cand create 'Create a queue (optionally FIFO, optionally with a dead-letter queue)'
            cand delete 'Delete a queue and every message in it'
            cand set 'Change a queue''s attributes: durations, dead-letter queue, redrive allow policy'
            cand url 'Print the URL of a queue'
        }
        &'sqsctl;help;queue;info'= {
        }
        &'sqsctl;help;queue;create'= {
        }
        &'sqsctl;help;queue;delete'= {
        }
        &'sqsctl;help;queue;set'= {
        }
        &'sqsctl;help;queue;url'= {
        }
        &'sqsctl;help;send'= {
        }
        &'sqsctl;help;receive'= {
        }
        &'sqsctl;help;peek'= {
        }
        &'sqsctl;help;consume'= {
        }
        &'sqsctl;help;delete'= {
        }
        &'sqsctl;help;purge'= {
        }
        &'sqsctl;help;visibility'= {
        }
        &'sqsctl;help;redrive'= {
            cand status 'List the native move tasks of a dead-letter queue (SQS keeps the latest 10)'
            cand cancel 'Cancel the running native move task of a dead-letter queue'
        }
        &'sqsctl;help;redrive;status'= {
        }
        &'sqsctl;help;redrive;cancel'= {
        }
        &'sqsctl;help;fifo'= {
            cand groups 'Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism'
        }
        &'sqsctl;help;fifo;groups'= {
        }
        &'sqsctl;help;diagnose'= {
        }
        &'sqsctl;help;local'= {
        }
        &'sqsctl;help;demo'= {
        }
        &'sqsctl;help;generate'= {
        }
        &'sqsctl;help;help'= {
        }
    ]
    $completions[$command]
}
