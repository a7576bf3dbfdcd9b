import Config

if config_env() != :test do
  # A bad setting stops the boot with one clear line instead of a boot crash dump.
  abort = fn message ->
    IO.puts(:stderr, "bench: " <> message)
    System.halt(64)
  end

  host = System.get_env("HOST", "0.0.0.0")

  ip =
    case :inet.parse_address(String.to_charlist(host)) do
      {:ok, ip} ->
        ip

      {:error, _} ->
        case :inet.getaddr(String.to_charlist(host), :inet) do
          {:ok, ip} ->
            ip

          {:error, reason} ->
            abort.("HOST=#{host} is neither an IP address nor a resolvable host name (#{reason})")
        end
    end

  port =
    case Integer.parse(System.get_env("PORT", "8080")) do
      {port, ""} when port in 1..65_535 -> port
      _ -> abort.("PORT=#{System.get_env("PORT")} is not a TCP port number (1-65535)")
    end

  config :bench, ip: ip, port: port
end
