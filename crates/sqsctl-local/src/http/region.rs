//! Which region a request is for: the one its SigV4 signature is scoped to, as SQS reads it.
//!
//! SDKs sign every request with a credential scope `<key>/<date>/<region>/sqs/aws4_request`, in the
//! `Authorization` header or, for a presigned URL, the `X-Amz-Credential` query parameter. The
//! server checks no signature (any credentials are accepted) but reads the region from the scope,
//! so that queues of different regions stay apart. A request that is not signed this way is for
//! the server's default region.

use crate::error::{ErrorKind, SqsError, excerpt};

/// The longest region name accepted; AWS's are about 15 characters.
const MAX_REGION_LEN: usize = 64;

/// The region of a request's credential scope, `None` for a request not signed with SigV4.
/// A scope whose region is not a plausible region name is refused.
pub fn signed_region(
    authorization: Option<&str>,
    query: Option<&str>,
) -> Result<Option<String>, SqsError> {
    let credential = authorization
        .and_then(|header| {
            let (scheme, rest) = header.trim_start().split_once(char::is_whitespace)?;
            if !scheme.eq_ignore_ascii_case("AWS4-HMAC-SHA256") {
                return None;
            }
            rest.split(',')
                .map(str::trim)
                .find_map(|part| part.strip_prefix("Credential="))
                .map(String::from)
        })
        .or_else(|| {
            form_urlencoded::parse(query.unwrap_or_default().as_bytes())
                .find(|(name, _)| name == "X-Amz-Credential")
                .map(|(_, value)| value.into_owned())
        });
    let Some(credential) = credential else {
        return Ok(None);
    };
    // The access key comes first and may be anything; the region is third from the end.
    let mut scope = credential.rsplit('/');
    let region = match (scope.next(), scope.next(), scope.next(), scope.next()) {
        (Some(_terminator), Some(_service), Some(region), Some(_date)) => region,
        _ => {
            return Err(SqsError::new(
                ErrorKind::AccessDenied,
                format!(
                    "The credential scope {} is malformed: expected <key>/<date>/<region>/sqs/aws4_request.",
                    excerpt(&credential)
                ),
            ));
        }
    };
    if !is_region_name(region) {
        return Err(SqsError::new(
            ErrorKind::AccessDenied,
            format!(
                "Credential should be scoped to a valid region, not {}.",
                excerpt(region)
            ),
        ));
    }
    Ok(Some(region.to_string()))
}

/// Lower-case letters, digits and hyphens, as AWS region names (`eu-west-1`) are: safe in queue
/// URLs and ARNs.
pub fn is_region_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_REGION_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIGNED: &str = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/eu-west-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc";

    #[test]
    fn the_region_comes_from_the_credential_scope() {
        assert_eq!(
            signed_region(Some(SIGNED), None).ok().flatten().as_deref(),
            Some("eu-west-1")
        );
        let presigned =
            "Action=ListQueues&X-Amz-Credential=key%2F20260101%2Fap-south-2%2Fsqs%2Faws4_request";
        assert_eq!(
            signed_region(None, Some(presigned))
                .ok()
                .flatten()
                .as_deref(),
            Some("ap-south-2")
        );
    }

    #[test]
    fn unsigned_requests_have_no_region() {
        assert!(matches!(signed_region(None, None), Ok(None)));
        assert!(matches!(
            signed_region(None, Some("Action=ListQueues")),
            Ok(None)
        ));
        assert!(matches!(
            signed_region(Some("Basic dXNlcjpwYXNz"), None),
            Ok(None)
        ));
    }

    #[test]
    fn implausible_regions_are_refused() {
        for header in [
            "AWS4-HMAC-SHA256 Credential=key/20260101/EU WEST/sqs/aws4_request",
            "AWS4-HMAC-SHA256 Credential=key/20260101/eu-west-1%2F..%2F/sqs/aws4_request",
            "AWS4-HMAC-SHA256 Credential=key/20260101//sqs/aws4_request",
            "AWS4-HMAC-SHA256 Credential=key, Signature=abc",
        ] {
            let refused = signed_region(Some(header), None);
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e.kind == ErrorKind::AccessDenied),
                "{header}: {refused:?}"
            );
        }
    }
}
