//! Who a request comes from, for the limits kept per client address.
//!
//! Behind a reverse proxy or load balancer every request's TCP peer is the proxy, so limits
//! keyed on it would put all users in one budget. A proxy named in `LUDDO_TRUSTED_PROXIES`
//! is believed about the address it forwards (the de-facto `X-Forwarded-For`, else RFC 7239
//! `Forwarded: for=`); anyone else's forwarding headers are ignored, as any client can send
//! them. `X-Forwarded-For` comes first because it is what nginx, HAProxy and most balancers
//! write, while they pass a client's own `Forwarded` on untouched: preferring `Forwarded` let a
//! client behind them name its own address. A proxy that writes only `Forwarded` must drop a
//! client's `X-Forwarded-For`. The chain is read from the right, past every trusted proxy: the first address that is
//! not one is the client (addresses left of it were written by the client itself).

use super::state::AppState;
use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, request::Parts},
};
use ipnet::IpNet;
use std::{
    convert::Infallible,
    net::{IpAddr, Ipv4Addr, SocketAddr},
};

/// The client's address, as [`client_ip`] decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        // Every connection the server accepts carries its peer (api::connections); a request
        // built without one (none is) counts as coming from nowhere in particular.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(addr)| addr.ip());
        Ok(ClientIp(client_ip(peer, &parts.headers, &state.config.trusted_proxies)))
    }
}

/// The address a request from `peer` with `headers` counts against.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let mut client = peer;
    for hop in forwarded_chain(headers).iter().rev() {
        match hop {
            // Something we cannot read ("unknown", an obfuscated name): the last proxy we trust
            // is as far as we can see.
            None => return client,
            Some(ip) => {
                client = *ip;
                if !is_trusted(ip) {
                    return client;
                }
            }
        }
    }
    client
}

/// The forwarded addresses, in order from the client to the last proxy: `X-Forwarded-For` if
/// the request has that header, else `Forwarded`'s `for=` parameters. `None` where a hop does
/// not name an address.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values =
        |name: &str| headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let x_forwarded_for = values("x-forwarded-for");
    if !x_forwarded_for.is_empty() {
        return x_forwarded_for.iter().flat_map(|v| v.split(',')).map(|hop| parse_node(hop.trim())).collect();
    }
    values("forwarded")
        .iter()
        .flat_map(|v| v.split(','))
        .map(|element| {
            let node = element.split(';').find_map(|pair| {
                let (key, value) = pair.trim().split_once('=')?;
                key.trim().eq_ignore_ascii_case("for").then(|| value.trim())
            })?;
            parse_node(node.trim_matches('"'))
        })
        .collect()
}

/// An address as proxies write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]`
/// or `[2001:db8::1]:4711`.
fn parse_node(node: &str) -> Option<IpAddr> {
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']').and_then(|(ip, _)| ip.parse().ok());
    }
    node.parse().ok().or_else(|| node.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn forwarding_headers_from_untrusted_peers_are_ignored() {
        let h = headers(&[("x-forwarded-for", "203.0.113.9"), ("forwarded", "for=203.0.113.9")]);
        assert_eq!(client_ip(ip("198.51.100.7"), &h, &[]), ip("198.51.100.7"));
        assert_eq!(client_ip(ip("198.51.100.7"), &h, &nets(&["10.0.0.0/8"])), ip("198.51.100.7"));
    }

    #[test]
    fn a_trusted_proxy_is_believed_and_read_from_the_right() {
        let trusted = nets(&["10.0.0.0/8"]);
        // The client wrote a fake first hop; the proxy appended the real peer it saw.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9")]);
        assert_eq!(client_ip(ip("10.0.0.2"), &h, &trusted), ip("203.0.113.9"));
        // Two trusted proxies in a row are passed over.
        let h = headers(&[("x-forwarded-for", "203.0.113.9, 10.0.0.5")]);
        assert_eq!(client_ip(ip("10.0.0.2"), &h, &trusted), ip("203.0.113.9"));
        // No header: the proxy itself.
        assert_eq!(client_ip(ip("10.0.0.2"), &HeaderMap::new(), &trusted), ip("10.0.0.2"));
    }

    #[test]
    fn forwarded_is_read_in_every_spelling_without_x_forwarded_for() {
        let trusted = nets(&["10.0.0.0/8"]);
        for (value, want) in [
            ("for=203.0.113.9", "203.0.113.9"),
            ("for=\"203.0.113.9:4711\";proto=https", "203.0.113.9"),
            ("For=\"[2001:db8::1]:4711\"", "2001:db8::1"),
            ("for=192.0.2.60;proto=http;by=203.0.113.43, for=198.51.100.17", "198.51.100.17"),
        ] {
            let h = headers(&[("forwarded", value)]);
            assert_eq!(client_ip(ip("10.0.0.2"), &h, &trusted), ip(want), "{value}");
        }
        // An unreadable hop stops the walk at the last trusted proxy.
        let h = headers(&[("forwarded", "for=203.0.113.9, for=unknown")]);
        assert_eq!(client_ip(ip("10.0.0.2"), &h, &trusted), ip("10.0.0.2"));
    }

    #[test]
    fn a_forwarded_header_the_client_wrote_does_not_override_the_proxys_x_forwarded_for() {
        let trusted = nets(&["10.0.0.0/8"]);
        // nginx writes X-Forwarded-For and passes a client's `Forwarded` on untouched.
        let h = headers(&[("forwarded", "for=203.0.113.9"), ("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(client_ip(ip("10.0.0.2"), &h, &trusted), ip("198.51.100.7"));
    }
}
