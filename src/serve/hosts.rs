//! The `Host` values the server answers to, from the address it listens on.
//!
//! Why a list at all: a page on another site can point a name it controls at this
//! machine (DNS rebinding) and then talk to the server as "its own" origin; its requests
//! still carry that name in `Host`, so only names the server knows to be its own are
//! accepted ([`super::guard`]). On loopback those are the loopback names. Listening on
//! every interface (`--bind 0.0.0.0`, for a classroom) the machine is reached by its own
//! addresses too, which are read from the interfaces, and by names only the user can
//! vouch for (`--allow-host`): a name is never guessed from DNS, which is what rebinding
//! controls.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The `Host` values a server listening on `address` answers to, the first the one it
/// prints: the address itself; on loopback, `localhost` and both loopback addresses; on
/// the unspecified address (`0.0.0.0`, `::`), those and every address of this machine's
/// interfaces; and each of `allowed` (a name, or a name with a port). Each with the port;
/// on port 80, which browsers leave out, without it too.
pub fn hosts_for(address: SocketAddr, allowed: &[String]) -> Vec<String> {
    let (ip, port) = (address.ip(), address.port());
    let local = ip.is_unspecified() || ip.is_loopback();
    // The address printed first: one a browser on this machine can open.
    let shown = match ip {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::from(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::from(Ipv6Addr::LOCALHOST),
        _ => ip,
    };
    let mut ips = vec![shown, ip];
    if local {
        ips.extend([
            IpAddr::from(Ipv4Addr::LOCALHOST),
            IpAddr::from(Ipv6Addr::LOCALHOST),
        ]);
    }
    if ip.is_unspecified() {
        ips.extend(interface_addresses());
    }
    let mut names: Vec<String> = ips
        .iter()
        .map(|ip| SocketAddr::new(*ip, port).to_string())
        .collect();
    if local {
        names.insert(1, format!("localhost:{port}"));
    }
    for name in allowed {
        let name = name.trim().to_ascii_lowercase();
        names.push(if has_port(&name) {
            name
        } else {
            format!("{name}:{port}")
        });
    }
    if port == 80 {
        let bare: Vec<String> = names
            .iter()
            .filter_map(|name| name.strip_suffix(":80").map(str::to_string))
            .collect();
        names.extend(bare);
    }
    let mut unique = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    unique
}

/// Whether a `--allow-host` value names its port (`name:8080`, `[::1]:8080`).
fn has_port(name: &str) -> bool {
    match name.rsplit_once(':') {
        Some((host, port)) => {
            !port.is_empty()
                && port.bytes().all(|byte| byte.is_ascii_digit())
                && (!host.contains(':') || host.ends_with(']'))
        }
        None => false,
    }
}

/// Checks a `--allow-host` value: a host name or address, with or without a port, and
/// nothing a `Host` header could not carry.
pub fn check_allowed_host(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"-.:[]_".contains(&byte));
    if valid {
        Ok(())
    } else {
        Err(format!(
            "'{}' is not a host name (letters, digits, '-', '.', and a ':PORT' if the page is reached on another port)",
            crate::format::escaped_for_terminals(name)
        ))
    }
}

/// The addresses of this machine's network interfaces (loopback ones left out: they are
/// listed anyway), as the operating system lists them.
#[cfg(unix)]
fn interface_addresses() -> Vec<IpAddr> {
    let mut addresses = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a linked list it allocates, read here and
    // given back with freeifaddrs; each `ifa_addr` is null or points to a sockaddr of
    // the family it names, which is the only one read.
    unsafe {
        if libc::getifaddrs(&mut list) != 0 {
            return addresses;
        }
        let mut entry = list;
        while !entry.is_null() {
            let address = (*entry).ifa_addr;
            if !address.is_null() {
                match i32::from((*address).sa_family) {
                    libc::AF_INET => {
                        let v4 = &*(address as *const libc::sockaddr_in);
                        addresses.push(IpAddr::from(u32::from_be(v4.sin_addr.s_addr).to_be_bytes()));
                    }
                    libc::AF_INET6 => {
                        let v6 = &*(address as *const libc::sockaddr_in6);
                        addresses.push(IpAddr::from(v6.sin6_addr.s6_addr));
                    }
                    _ => {}
                }
            }
            entry = (*entry).ifa_next;
        }
        libc::freeifaddrs(list);
    }
    addresses.retain(|ip| !ip.is_loopback());
    addresses
}

/// Elsewhere the interfaces are not read: the loopback names, the bound address and
/// `--allow-host` are what the server answers to.
#[cfg(not(unix))]
fn interface_addresses() -> Vec<IpAddr> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_answers_to_its_names_and_nothing_else() {
        let hosts = hosts_for("127.0.0.1:8123".parse().unwrap(), &[]);
        assert_eq!(hosts, ["127.0.0.1:8123", "localhost:8123", "[::1]:8123"]);
    }

    #[test]
    fn every_interface_answers_to_loopback_the_machines_addresses_and_allowed_names() {
        let hosts = hosts_for(
            "0.0.0.0:8123".parse().unwrap(),
            &["Classroom.example".to_string(), "proxy.example:443".to_string()],
        );
        assert_eq!(hosts[0], "127.0.0.1:8123", "the address printed");
        for host in [
            "localhost:8123",
            "0.0.0.0:8123",
            "[::1]:8123",
            "classroom.example:8123",
            "proxy.example:443",
        ] {
            assert!(hosts.contains(&host.to_string()), "{host} in {hosts:?}");
        }
        for ip in interface_addresses() {
            assert!(
                hosts.contains(&SocketAddr::new(ip, 8123).to_string()),
                "{ip} in {hosts:?}"
            );
        }
        assert!(
            !hosts.iter().any(|host| host == "classroom.example"),
            "port 80 only"
        );
    }

    #[test]
    fn a_specific_address_answers_to_itself_and_allowed_names_only() {
        let hosts = hosts_for("192.0.2.7:80".parse().unwrap(), &["class.example".to_string()]);
        assert_eq!(
            hosts,
            ["192.0.2.7:80", "class.example:80", "192.0.2.7", "class.example"]
        );
    }

    #[test]
    fn allowed_names_are_checked() {
        assert!(check_allowed_host("class-room.example:8080").is_ok());
        assert!(check_allowed_host("[fe80::1]:8080").is_ok());
        for bad in ["", "a b", "evil/path", "x\ny"] {
            assert!(check_allowed_host(bad).is_err(), "{bad:?}");
        }
    }
}
