//! What a command runs with: the printer, the AWS settings and the Ctrl-C flag. `app` builds a
//! [`Context`] once per run; commands only read it. It holds no command-line types.

use tokio::sync::OnceCell;

use crate::client::{AwsSettings, ClientError, Sqs};
use crate::interrupt::Interrupt;
use crate::output::Printer;

/// What every command runs with: the printer, the AWS settings (the client is built on first use,
/// so commands that never call AWS never load credentials), and the Ctrl-C flag.
pub struct Context {
    pub printer: Printer,
    aws: AwsSettings,
    sqs: OnceCell<Sqs>,
    pub interrupt: Interrupt,
    /// The user's editor, a shell command line ([`crate::settings::GlobalSettings::editor`]).
    pub editor: String,
}

impl Context {
    pub fn new(printer: Printer, aws: AwsSettings, interrupt: Interrupt) -> Context {
        Context {
            printer,
            aws,
            sqs: OnceCell::new(),
            interrupt,
            editor: crate::settings::DEFAULT_EDITOR.to_string(),
        }
    }

    /// The same, with the user's editor.
    pub fn with_editor(self, editor: String) -> Context {
        Context { editor, ..self }
    }

    /// The SQS client, built from the AWS chain on first use.
    pub async fn sqs(&self) -> anyhow::Result<&Sqs> {
        let sqs = self
            .sqs
            .get_or_try_init(|| async {
                let sqs = Sqs::connect(&self.aws).await?;
                self.printer.debug(format!(
                    "region {}, endpoint {}, profile {}",
                    sqs.region(),
                    sqs.endpoint_description(),
                    self.aws
                        .profile
                        .as_deref()
                        .unwrap_or("from AWS_PROFILE or `default`")
                ));
                Ok::<_, ClientError>(sqs)
            })
            .await?;
        Ok(sqs)
    }

    pub fn aws_settings(&self) -> &AwsSettings {
        &self.aws
    }
}
