//! One call to the server's JSON API.

use reqwest::{Client, Method};
use serde_json::Value;

/// A JSON answer: the status and the body (`None` if it is not JSON).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Option<Value>,
}

impl Answer {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body, or `null` if it was not JSON.
    pub fn json(self) -> Value {
        self.body.unwrap_or(Value::Null)
    }
}

/// `method {base}{path}` with `token` as bearer and `body` as JSON, if given.
pub async fn call(
    http: &Client,
    base: &str,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<Answer, reqwest::Error> {
    let mut request = http.request(method, format!("{base}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    let bytes = response.bytes().await?;
    Ok(Answer { status, body: serde_json::from_slice(&bytes).ok() })
}
